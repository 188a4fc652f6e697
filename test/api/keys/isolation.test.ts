import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from './key-helpers.js';

let h: Harness;
let alice = '';
let bob = '';
let aliceImage = '';
let aliceCollection = '';
let aliceTemplate = '';
let aliceKeyId = '';

beforeAll(async () => {
  h = await createHarness();
  const aliceKey = await createKeyFor(h, { name: 'alice', user_id: 'alice' });
  alice = aliceKey.key;
  aliceKeyId = aliceKey.id;
  bob = (await createKeyFor(h, { name: 'bob', user_id: 'bob' })).key;
  aliceImage = String(
    (await json(await as(h, alice, 'POST', '/api/generate', { prompt: "alice's image", model: 'local/procedural', width: 64, height: 64 }))).id,
  );
  aliceCollection = String((await json(await as(h, alice, 'POST', '/api/collections', { name: "alice's" }))).id);
  aliceTemplate = String(
    (await json(await as(h, alice, 'POST', '/api/templates', { name: "alice's", model: 'local/procedural', default_prompt: 'a secret idea' }))).id,
  );
});
afterAll(async () => {
  await h.close();
});

describe("another user's resources are not found, never forbidden", () => {
  it.each([
    ['GET', () => `/api/images/${aliceImage}`, undefined],
    ['DELETE', () => `/api/images/${aliceImage}`, undefined],
    ['GET', () => `/api/collections/${aliceCollection}`, undefined],
    ['GET', () => `/api/collections/${aliceCollection}/images`, undefined],
    ['POST', () => `/api/collections/${aliceCollection}/images`, () => ({ image_id: aliceImage })],
    ['DELETE', () => `/api/collections/${aliceCollection}`, undefined],
    ['GET', () => `/api/templates/${aliceTemplate}`, undefined],
    ['PUT', () => `/api/templates/${aliceTemplate}`, () => ({ name: 'stolen' })],
    ['DELETE', () => `/api/templates/${aliceTemplate}`, undefined],
    ['DELETE', () => `/api/keys/${aliceKeyId}`, undefined],
  ])('%s on alice’s resource as bob is a 404', async (method, path, body) => {
    const res = await as(h, bob, method, path(), body?.());
    expect(res.status).toBe(404);
  });

  it("refuses to add alice's image to bob's collection (404 Image not found)", async () => {
    const bobCollection = String((await json(await as(h, bob, 'POST', '/api/collections', { name: "bob's" }))).id);
    const res = await as(h, bob, 'POST', `/api/collections/${bobCollection}/images`, { image_id: aliceImage });
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ error: 'Image not found', details: { image_id: aliceImage } });
  });

  it("refuses to generate from alice's template", async () => {
    const res = await as(h, bob, 'POST', '/api/generate', { template_id: aliceTemplate });
    expect(res.status).toBe(404);
  });

  it("never lists alice's resources or counts her costs for bob", async () => {
    expect((await json(await as(h, bob, 'GET', '/api/images'))).images).toEqual([]);
    const collections = await json<{ collections: { id: string }[] }>(await as(h, bob, 'GET', '/api/collections'));
    expect(collections.collections.map((c) => c.id)).not.toContain(aliceCollection);
    const templates = await json<{ templates: { id: string; user_id: string }[] }>(await as(h, bob, 'GET', '/api/templates'));
    expect(templates.templates.map((t) => t.id)).not.toContain(aliceTemplate);
    expect(templates.templates.every((t) => t.user_id === 'system' || t.user_id === 'bob')).toBe(true);
    const keys = await json<{ keys: { user_id: string }[] }>(await as(h, bob, 'GET', '/api/keys'));
    expect(keys.keys.every((k) => k.user_id === 'bob')).toBe(true);
    expect((await json(await as(h, bob, 'GET', '/api/analytics/usage'))).total_images).toBe(0);
  });

  it('leaves alice’s resources intact after bob’s attempts', async () => {
    expect((await as(h, alice, 'GET', `/api/images/${aliceImage}`)).status).toBe(200);
    expect((await json(await as(h, alice, 'GET', `/api/templates/${aliceTemplate}`))).name).toBe("alice's");
    expect((await as(h, alice, 'GET', `/api/collections/${aliceCollection}`)).status).toBe(200);
    expect((await json(await as(h, alice, 'GET', '/api/analytics/usage'))).total_images).toBe(1);
  });

  it.each([
    ['user_id', { user_id: 'bob' }],
    ['cost', { cost: 0 }],
    ['is_deleted', { is_deleted: true }],
    ['id', { id: 'img_mine' }],
  ])('refuses a caller-set %s on generate', async (field, extra) => {
    const res = await as(h, alice, 'POST', '/api/generate', { prompt: 'a cat', model: 'local/procedural', ...extra });
    expect(res.status).toBe(400);
    expect((await json(res)).details).toMatchObject({ field });
  });
});
