import OpenAI, { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError, RateLimitError } from 'openai';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, json } from '../../../src/test-support/harness.js';
import { createKeyFor } from '../../api/keys/key-helpers.js';
import { listenEach } from './listen-each.js';

const live = listenEach({ workers: false });

const client = (apiKey = TEST_KEY) => new OpenAI({ apiKey, baseURL: `${live.server.origin}/v1`, maxRetries: 0 });
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('OpenAI-compatible images', () => {
  it('generates with the OpenAI SDK: url is the stored image, which is in the gallery with its cost', async () => {
    const result = await client().images.generate({
      model: 'local/procedural',
      prompt: 'a lighthouse on a cliff',
      size: '256x256',
      n: 2,
      response_format: 'url',
    });
    expect(result.created).toBe(Math.floor(live.h.clock.now().getTime() / 1000));
    expect(result.data).toHaveLength(2);
    const listed = await json<{ images: { r2_url: string; width: number; model: string; cost: number }[] }>(await live.h.call('GET', '/api/images'));
    expect(listed.images.map((image) => image.r2_url).sort()).toEqual(result.data?.map((d) => d.url).sort());
    expect(listed.images[0]).toMatchObject({ width: 256, model: 'local/procedural', cost: 0 });
    const file = await live.h.fetchPublic(result.data?.[0]?.url ?? '');
    expect(file.status).toBe(200);
  });

  it('answers b64_json with the PNG itself when no response_format is asked for, as OpenAI does, and uses the default model when none is named', async () => {
    const result = await client().images.generate({ prompt: 'a red fox in the snow', user: 'end-user-7' });
    expect(result.data?.[0]?.url).toBeUndefined();
    const bytes = Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64');
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const listed = await json<{ images: { model: string; metadata: unknown }[] }>(await live.h.call('GET', '/api/images'));
    expect(listed.images).toHaveLength(1);
    expect(listed.images[0]).toMatchObject({ model: live.h.deps.catalog.defaultModelId, metadata: { openai_user: 'end-user-7' } });
  });

  it('refuses a size the model cannot make with a BadRequestError naming the sizes it can', async () => {
    const error = await client()
      .images.generate({ model: 'local/procedural', prompt: 'a lake', size: '4096x4096' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const bad = error as BadRequestError;
    expect(bad.status).toBe(400);
    expect(bad.param).toBe('size');
    expect(bad.type).toBe('invalid_request_error');
    expect(bad.message).toMatch(/width 64 to 2048/);
    expect((await json<{ images: unknown[] }>(await live.h.call('GET', '/api/images'))).images).toHaveLength(0);
  });

  it('refuses an empty prompt and an unknown model with BadRequestError', async () => {
    const empty = await client()
      .images.generate({ prompt: '' })
      .catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(BadRequestError);
    expect((empty as BadRequestError).param).toBe('prompt');
    const unknown = await client()
      .images.generate({ prompt: 'a lake', model: 'nobody/nothing' })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(BadRequestError);
    expect((unknown as BadRequestError).code).toBe('model_not_found');
  });

  it('speaks OpenAI error shape for bodies it cannot read', async () => {
    const res = await fetch(`${live.server.origin}/v1/images/generations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
    const body = await json<{ error: { message: string; type: string; param: unknown; code: string } }>(res);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request_body', param: null });
    expect(body.error.message).toMatch(/not valid JSON/);
  });
});

describe('OpenAI-compatible models', () => {
  it('lists the models that can generate, in the list shape', async () => {
    const page = await client().models.list();
    const ids = page.data.map((model) => model.id);
    expect(ids).toContain('local/procedural');
    expect(page.data.find((model) => model.id === 'local/procedural')).toMatchObject({ object: 'model', owned_by: 'local' });
    for (const model of page.data) expect(Number.isInteger(model.created)).toBe(true);
  });

  it('retrieves a model whose id has a slash, and answers NotFoundError for an unknown one', async () => {
    const model = await client().models.retrieve('local/procedural');
    expect(model).toMatchObject({ id: 'local/procedural', object: 'model' });
    const raw = await fetch(`${live.server.origin}/v1/models/local/procedural`, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
    expect((await json(raw)).id).toBe('local/procedural');
    await expect(client().models.retrieve('nobody/nothing')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('OpenAI-compatible errors', () => {
  it('answers a wrong key with AuthenticationError', async () => {
    const error = await client('igk_live_wrong')
      .models.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('invalid_api_key');
  });

  it('answers a read-only key that generates with PermissionDeniedError, and lets it list models', async () => {
    const { key } = await createKeyFor(live.h, { name: 'reader', permissions: ['read'] });
    await expect(client(key).models.list()).resolves.toBeDefined();
    const error = await client(key)
      .images.generate({ prompt: 'a lake at night' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).type).toBe('permission_error');
  });

  it("answers over a key's rate limit with RateLimitError and Retry-After", async () => {
    const { key } = await createKeyFor(live.h, { name: 'tiny', permissions: ['read'], plan: 'enterprise', rate_limit: 2 });
    await client(key).models.list();
    await client(key).models.list();
    const error = await client(key)
      .models.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).code).toBe('rate_limit_exceeded');
    expect((error as RateLimitError).headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
