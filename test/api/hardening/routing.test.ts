import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('a wrong method on a known path', () => {
  it.each([
    ['GET', '/api/generate', 'POST'],
    ['PUT', '/api/images', 'GET, HEAD'],
    ['POST', '/api/images/img_1', 'GET, DELETE, HEAD'],
    ['PUT', '/api/collections/coll_1/images', 'GET, POST, HEAD'],
    ['POST', '/health', 'GET, HEAD'],
    ['DELETE', '/api/models/@cf/black-forest-labs/flux-1-schnell', 'GET, HEAD'],
  ])('%s %s answers 405 with Allow: %s and the JSON error shape', async (method, path, allow) => {
    const res = await h.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe(allow);
    expect(await json(res)).toMatchObject({ error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED', details: { allowed: allow.split(', ') } });
  });

  it('still answers 404 for a path no method has', async () => {
    const res = await h.call('GET', '/api/generatex');
    expect(res.status).toBe(404);
    expect(res.headers.get('Allow')).toBeNull();
  });
});

describe('impossible dates in analytics ranges', () => {
  it.each([
    'from=2026-02-31',
    'from=2026-02-29',
    'to=2026-13-01',
    'from=2026-00-10',
    'from=2026-11-01T24:00:00Z',
    'from=2026-11-01T23:60:00Z',
    'to=2026-11-01T12:00:61Z',
    'from=2026-11-01T12:00:00+25:00',
    'from=2026-4-01',
  ])('%s is a 400 naming the parameter', async (query) => {
    const res = await h.call('GET', `/api/analytics/usage?${query}`);
    expect(res.status).toBe(400);
    const field = query.split('=')[0];
    expect(await json(res)).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { field, message: expect.stringContaining(`${field} must be a real calendar date`) },
    });
  });

  it.each(['from=2028-02-29', 'from=2026-11-01T23:59:59.999Z', 'to=2026-12-31', 'from=2026-11-01T10:00:00%2B05:30'])('%s is accepted', async (query) => {
    expect((await h.call('GET', `/api/analytics/costs?${query}`)).status).toBe(200);
  });
});

describe('the API reference assets', () => {
  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])('/docs/assets/%s is a JSON 404', async (name) => {
    const res = await h.app.request(`/docs/assets/${name}`);
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the OpenAPI document', () => {
  interface Operation {
    operationId?: string;
    'x-permissions'?: string[];
  }
  const operations = async () => {
    const doc = await json<{ info: { version: string }; paths: Record<string, Record<string, Operation>> }>(await h.app.request('/openapi.json'));
    return { doc, ops: Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ path, method, op }))) };
  };

  it('names the package version and documents /health', async () => {
    const { doc } = await operations();
    const pkg = (await import('../../../package.json', { with: { type: 'json' } })).default;
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.paths['/health']).toHaveProperty('get');
  });

  it('gives every operation a unique operationId and every /api operation its permissions', async () => {
    const { ops } = await operations();
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of ops.filter(({ path }) => path.startsWith('/api/'))) {
      expect({ path, method, permissions: op['x-permissions'] }).toMatchObject({
        permissions: expect.arrayContaining([expect.stringMatching(/^(read|generate|manage)$/)]),
      });
    }
  });
});
