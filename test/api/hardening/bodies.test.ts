import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { countStored } from './stored.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const auth = { Authorization: `Bearer ${TEST_KEY}` };
const nested = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
};
const generate = (metadata: unknown) => h.call('POST', '/api/generate', { prompt: 'a red barn', model: 'local/procedural', width: 64, height: 64, metadata });

describe('metadata limits', () => {
  it('stores metadata nested 8 levels deep', async () => {
    const res = await generate(nested(8));
    expect(res.status).toBe(201);
  });

  it('refuses metadata nested 9 levels deep with a 400 and stores nothing', async () => {
    const before = await countStored(h);
    const res = await generate(nested(9));
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'metadata', message: expect.stringContaining('at most 8 levels') } });
    expect(await countStored(h)).toEqual(before);
  });

  it.each([4_100, 4_118, 50_000])('refuses a body nested %i levels deep and keeps every list readable', async (levels) => {
    const before = await countStored(h);
    // Written as text: JSON.stringify itself overflows the stack on such values.
    const metadata = `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    const res = await h.call('POST', '/api/generate', `{"prompt":"a red barn","model":"local/procedural","metadata":${metadata}}`);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'metadata' } });
    expect(await countStored(h)).toEqual(before);
    expect((await h.call('GET', '/api/images')).status).toBe(200);
  });

  it('refuses metadata over 16 KiB as JSON, saying the size', async () => {
    const res = await generate({ notes: 'x'.repeat(16 * 1024) });
    expect(await json(res)).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { field: 'metadata', message: expect.stringMatching(/^metadata must be at most 16384 bytes as JSON \(got \d+\)$/) },
    });
    expect(res.status).toBe(400);
  });
});

describe('text must be valid Unicode', () => {
  it.each([
    ['a prompt', '{"prompt":"a cat \\ud800 on a mat","model":"local/procedural"}', 'prompt'],
    ['a metadata value', '{"prompt":"a cat on a mat","model":"local/procedural","metadata":{"k":"\\udfff"}}', 'metadata'],
    ['a metadata key', '{"prompt":"a cat on a mat","model":"local/procedural","metadata":{"\\ud83d":1}}', 'metadata'],
  ])('refuses a lone surrogate in %s with a 400 naming the field', async (_case, body, field) => {
    const before = await countStored(h);
    const res = await h.call('POST', '/api/generate', body);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 'INVALID_PARAMETER', details: { field, message: expect.stringContaining('surrogate') } });
    expect(await countStored(h)).toEqual(before);
  });

  it('stores a well-formed surrogate pair (an emoji) exactly as sent', async () => {
    const res = await h.call('POST', '/api/generate', '{"prompt":"a cat \\ud83d\\ude00 on a mat","model":"local/procedural","width":64,"height":64}');
    expect(res.status).toBe(201);
    const { id } = await json<{ id: string }>(res);
    expect(await json(await h.call('GET', `/api/images/${id}`))).toMatchObject({ prompt: 'a cat 😀 on a mat' });
  });
});

describe('content types', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json ; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json;',
    'APPLICATION/JSON',
    'Application/Json; Charset="utf-8"',
    'application/merge-patch+json',
  ])('accepts %s', async (type) => {
    const res = await h.app.request('/api/collections', { method: 'POST', headers: { ...auth, 'Content-Type': type }, body: '{"name":"x"}' });
    expect(res.status).toBe(201);
  });

  it.each(['text/plain', 'application/jsonx', 'application/x-www-form-urlencoded', 'json'])('refuses %s, saying what to send', async (type) => {
    const res = await h.app.request('/api/collections', { method: 'POST', headers: { ...auth, 'Content-Type': type }, body: '{"name":"x"}' });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: 'Invalid request body', details: expect.stringContaining('send Content-Type: application/json') });
  });
});

describe('operations that take no input', () => {
  it.each([
    ["the walk-through's headers (Content-Type: application/json, no body)", { 'Content-Type': 'application/json' }, undefined],
    ['no headers and no body', {}, undefined],
    ['an empty JSON object', { 'Content-Type': 'application/json' }, '{}'],
  ])('cancel a batch with %s', async (_case, headers, body) => {
    const created = await json<{ id: string }>(
      await h.call('POST', '/api/batch/create', { name: 'b', prompts: ['a red fox'], model: 'local/procedural', width: 64, height: 64 }),
    );
    const res = await h.app.request(`/api/batch/${created.id}/cancel`, { method: 'POST', headers: { ...auth, ...headers }, body });
    expect([200, 409]).toContain(res.status);
    expect(await json(res)).not.toMatchObject({ code: 'INVALID_REQUEST_BODY' });
  });
});

describe('text every database can store', () => {
  it('refuses a NUL character in a body string with a 400 naming the field', async () => {
    const before = await countStored(h);
    const res = await h.call('POST', '/api/collections', '{"name":"a\\u0000b"}');
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'name', message: expect.stringContaining('NUL character') } });
    expect(await countStored(h)).toEqual(before);
  });

  it('answers an id with a NUL character as not found, and a NUL in a query value as a 400', async () => {
    expect((await h.call('GET', '/api/templates/%00')).status).toBe(404);
    expect((await h.call('PUT', '/api/templates/%00', {})).status).toBe(404);
    const res = await h.call('GET', '/api/images?q=a%00b');
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ details: { field: 'q' } });
  });
});
