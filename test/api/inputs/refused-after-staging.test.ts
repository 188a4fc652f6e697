import { afterEach, beforeEach, expect, it } from 'vitest';
import { json, type Harness } from '../../../src/test-support/harness.js';
import { harnessWithStandIn } from '../../../src/test-support/stand-in-harness.js';
import type { StandIn } from '../../../src/test-support/stand-in-provider.js';
import { createKeyFor } from '../keys/key-helpers.js';
import { file, form, photoPng } from './images.js';

/** FLUX Kontext [pro] on Replicate takes one image and costs $0.04 a picture (a stand-in counts the calls). */
const KONTEXT = 'replicate/black-forest-labs/flux-kontext-pro';

let h: Harness;
let standIn: StandIn;
beforeEach(async () => ({ h, standIn } = await harnessWithStandIn()));
afterEach(() => h.close());

const asKey = (key: string, path: string, body: FormData) => h.app.request(path, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body });

it('removes the stored files of an edit that a budget then refuses: nothing is left in the gallery or the bucket', async () => {
  const { key } = await createKeyFor(h, { name: 'tight', permissions: ['generate', 'read'], daily_budget_usd: 0.01 });
  const res = await asKey(key, '/v1/images/edits', form({ image: file(await photoPng(64, 64), 'room.png'), prompt: 'a green armchair', model: KONTEXT }));
  // OpenAI's shape of a spend limit: 429 insufficient_quota.
  expect(res.status).toBe(429);
  expect((await json<{ error: { code: string } }>(res)).error.code).toBe('insufficient_quota');
  expect(standIn.calls()).toBe(0);
  expect(await h.blobs.keys()).toEqual([]);
  expect((await json<{ pagination: { total: number } }>(await h.call('GET', '/api/images?kind=upload'))).pagination.total).toBe(0);
});

it('refuses an OpenAI user with a NUL in a variation, naming user, before storing the file', async () => {
  const res = await h.call('POST', '/v1/images/variations', form({ image: file(await photoPng(64, 64), 'a.png'), user: 'nul \u0000 inside' }));
  expect(res.status).toBe(400);
  expect((await json<{ error: { param: string } }>(res)).error.param).toBe('user');
  expect(await h.blobs.keys()).toEqual([]);
});
