import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const auth = { Authorization: `Bearer ${TEST_KEY}` };

describe('request bodies', () => {
  it('answers a body that is not JSON with `Invalid request body` and a string details', async () => {
    const res = await h.call('POST', '/api/generate', '{"prompt": "a cat",', {});
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toMatchObject({ error: 'Invalid request body', code: 'INVALID_REQUEST_BODY' });
    expect(typeof body.details).toBe('string');
  });

  it('refuses a POST without Content-Type: application/json, saying so', async () => {
    const res = await h.app.request('/api/generate', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'text/plain' },
      body: '{"prompt":"a cat","model":"local/procedural"}',
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({
      error: 'Invalid request body',
      details: expect.stringContaining('send Content-Type: application/json (got "text/plain")'),
    });
  });

  it('refuses a POST with no body at all where the endpoint takes one', async () => {
    const res = await h.app.request('/api/collections', { method: 'POST', headers: auth });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({
      error: 'Invalid request body',
      details: 'the request body is empty; send a JSON object with Content-Type: application/json',
    });
  });

  it('accepts application/json with a charset', async () => {
    const res = await h.app.request('/api/collections', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"name":"x"}',
    });
    expect(res.status).toBe(201);
  });

  it('refuses a body that is JSON but not an object', async () => {
    const res = await h.call('POST', '/api/generate', '[1,2,3]');
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe('Invalid request body');
  });

  it('refuses an empty body', async () => {
    const res = await h.call('POST', '/api/collections', '');
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe('Invalid request body');
  });

  it('refuses a body over 1 MiB with 413 in the error shape, and stores nothing', async () => {
    const res = await h.call('POST', '/api/generate', { prompt: 'a cat', model: 'local/procedural', metadata: { blob: 'x'.repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ error: 'Request body too large', code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 1048576 } });
    expect(await h.blobs.keys()).toEqual([]);
  });
});

describe('every response', () => {
  it.each([
    ['GET', '/api/images'],
    ['GET', '/api/nope'],
    ['GET', '/health'],
    ['POST', '/api/generate'],
  ])('carries the CORS headers and an X-Request-Id (%s %s)', async (method, path) => {
    const res = await h.call(method, path, method === 'POST' ? '{' : undefined);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Allow-Methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(res.headers.get('Access-Control-Allow-Headers')).toBe('Content-Type, Idempotency-Key');
    expect(res.headers.get('X-Request-Id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('echoes a caller-supplied X-Request-Id', async () => {
    const res = await h.call('GET', '/health', undefined, { 'X-Request-Id': 'trace-123' });
    expect(res.headers.get('X-Request-Id')).toBe('trace-123');
  });

  it('answers an OPTIONS preflight with 204 and no key needed', async () => {
    const res = await h.app.request('/api/generate', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
  });

  it('lets a browser on another origin PATCH a key and send Idempotency-Key: the preflight and the answer both allow them', async () => {
    const preflight = await h.app.request('/api/keys/key_1', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'content-type, idempotency-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Methods')?.split(', ')).toContain('PATCH');
    expect(preflight.headers.get('Access-Control-Allow-Headers')?.split(', ')).toEqual(expect.arrayContaining(['Content-Type', 'Idempotency-Key']));

    const created = await json<{ id: string }>(
      await h.call('POST', '/api/keys', { name: 'cors', permissions: ['read'] }, { Origin: 'https://app.example', 'Idempotency-Key': 'cors-1' }),
    );
    const answer = await h.call('PATCH', `/api/keys/${created.id}`, { daily_budget_usd: 1 }, { Origin: 'https://app.example' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(answer.headers.get('Access-Control-Allow-Headers')?.split(', ')).toContain('Idempotency-Key');
    expect(answer.headers.get('Access-Control-Allow-Methods')?.split(', ')).toContain('PATCH');
  });

  it('answers an unknown route with a JSON 404', async () => {
    const res = await h.call('GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ error: 'Not found', code: 'NOT_FOUND' });
  });
});

describe('key-based mode (single operator key until stored keys land)', () => {
  it.each([
    ['no header', {}],
    ['a wrong key', { Authorization: 'Bearer nope' }],
    ['another scheme', { Authorization: `Basic ${TEST_KEY}` }],
  ])('answers %s with 401 and WWW-Authenticate: Bearer', async (_case, headers) => {
    const res = await h.app.request('/api/images', { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect(await json(res)).toMatchObject({ error: 'Invalid API key', code: 'UNAUTHORIZED' });
  });

  it('accepts the bearer scheme in any case', async () => {
    const res = await h.app.request('/api/images', { headers: { Authorization: `bEaReR ${TEST_KEY}` } });
    expect(res.status).toBe(200);
  });
});
