import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from './key-helpers.js';

let h: Harness;
const keys: Record<string, string> = {};
let imageId = '';
let collectionId = '';
let templateId = '';

beforeAll(async () => {
  // No workers: batches stay queued, so cancelling one is always possible.
  h = await createHarness({ workers: false });
  for (const permission of ['read', 'generate', 'manage'] as const) {
    keys[permission] = (await createKeyFor(h, { name: permission, permissions: [permission], user_id: 'alice' })).key;
  }
  const manage = keys.manage ?? '';
  imageId = String(
    (await json(await as(h, manage, 'POST', '/api/generate', { prompt: 'a fixture image', model: 'local/procedural', width: 64, height: 64 }))).id,
  );
  collectionId = String((await json(await as(h, manage, 'POST', '/api/collections', { name: 'fixture' }))).id);
  templateId = String((await json(await as(h, manage, 'POST', '/api/templates', { name: 't', model: 'local/procedural', default_prompt: 'a fixture' }))).id);
});
afterAll(async () => {
  await h.close();
});

type Permission = 'read' | 'generate' | 'manage';
type Needs = Permission | Permission[];

/** Every endpoint, the permission it needs, and a request that succeeds with it. */
const endpoints: [string, string, () => unknown, Needs][] = [
  ['GET', '/api/images', () => undefined, 'read'],
  ['GET', '/api/images/{image}', () => undefined, 'read'],
  ['POST', '/api/generate', () => ({ prompt: 'a permission test', model: 'local/procedural', width: 64, height: 64 }), 'generate'],
  ['DELETE', '/api/images/{fresh-image}', () => undefined, 'manage'],
  ['GET', '/api/collections', () => undefined, 'read'],
  ['POST', '/api/collections', () => ({ name: 'c' }), 'manage'],
  ['GET', '/api/collections/{collection}', () => undefined, 'read'],
  ['GET', '/api/collections/{collection}/images', () => undefined, 'read'],
  ['POST', '/api/collections/{collection}/images', () => ({ image_id: imageId }), 'manage'],
  ['DELETE', '/api/collections/{fresh-collection}', () => undefined, 'manage'],
  ['GET', '/api/models', () => undefined, 'read'],
  ['GET', '/api/models/local/procedural', () => undefined, 'read'],
  ['GET', '/api/templates', () => undefined, 'read'],
  ['POST', '/api/templates', () => ({ name: 't', model: 'local/procedural', default_prompt: 'a template' }), 'manage'],
  ['GET', '/api/templates/{template}', () => undefined, 'read'],
  ['PUT', '/api/templates/{template}', () => ({ name: 'renamed' }), 'manage'],
  ['DELETE', '/api/templates/{fresh-template}', () => undefined, 'manage'],
  ['GET', '/api/analytics/usage', () => undefined, 'read'],
  ['GET', '/api/analytics/costs', () => undefined, 'read'],
  ['GET', '/api/keys', () => undefined, 'manage'],
  ['POST', '/api/keys', () => ({ name: 'k', permissions: ['read'] }), 'manage'],
  ['DELETE', '/api/keys/{fresh-key}', () => undefined, 'manage'],
  ['PATCH', '/api/keys/{fresh-key}', () => ({ name: 'renamed' }), 'manage'],
  ['POST', '/api/batch/generate', () => ({ prompts: ['a batch prompt'], model: 'local/procedural', width: 64, height: 64 }), 'generate'],
  ['POST', '/api/batch/create', () => ({ name: 'b', prompts: ['a batch prompt'], model: 'local/procedural', width: 64, height: 64 }), 'generate'],
  ['GET', '/api/batch', () => undefined, ['read', 'generate']],
  ['GET', '/api/batch/{batch}', () => undefined, ['read', 'generate']],
  ['POST', '/api/batch/{fresh-batch}/cancel', () => ({}), 'generate'],
  ['GET', '/api/webhooks/secret', () => undefined, 'manage'],
];

async function resolvePath(template: string): Promise<string> {
  const manage = keys.manage ?? '';
  const fresh = async (path: string, body: unknown) => String((await json(await as(h, manage, 'POST', path, body))).id);
  const replacements: Record<string, () => Promise<string>> = {
    '{image}': async () => imageId,
    '{collection}': async () => collectionId,
    '{template}': async () => templateId,
    '{fresh-image}': () => fresh('/api/generate', { prompt: 'to be deleted', model: 'local/procedural', width: 64, height: 64 }),
    '{fresh-collection}': () => fresh('/api/collections', { name: 'to be deleted' }),
    '{fresh-template}': () => fresh('/api/templates', { name: 'x', model: 'local/procedural', default_prompt: 'to be deleted' }),
    '{fresh-key}': () => fresh('/api/keys', { name: 'to be revoked', permissions: ['read'] }),
    '{batch}': () => fresh('/api/batch/generate', { prompts: ['a batch to read'], model: 'local/procedural', width: 64, height: 64 }),
    '{fresh-batch}': () => fresh('/api/batch/generate', { prompts: ['a batch to cancel'], model: 'local/procedural', width: 64, height: 64 }),
  };
  for (const [placeholder, value] of Object.entries(replacements)) {
    if (template.includes(placeholder)) return template.replace(placeholder, await value());
  }
  return template;
}

const allows = (held: Permission, needs: Needs) => held === 'manage' || (Array.isArray(needs) ? needs.includes(held) : held === needs);

describe('permissions per endpoint', () => {
  for (const [method, path, body, needs] of endpoints) {
    for (const held of ['read', 'generate', 'manage'] as const) {
      const expected = allows(held, needs) ? 'is allowed' : 'is forbidden (403)';
      it(`${method} ${path} with a ${held} key ${expected}`, async () => {
        const res = await as(h, keys[held] ?? '', method, await resolvePath(path), body());
        if (allows(held, needs)) {
          expect(res.status, await res.clone().text()).toBeLessThan(300);
        } else {
          expect(res.status).toBe(403);
          expect(await json(res)).toMatchObject({
            error: 'Insufficient permissions',
            code: 'FORBIDDEN',
            details: { required: expect.stringContaining(Array.isArray(needs) ? needs.join(' or ') : needs) },
          });
        }
      });
    }
  }
});
