import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { MAX_B64_PIXELS_PER_REQUEST } from '../../../src/http/routes/openai/b64-answer.js';
import { TEST_KEY, json } from '../../../src/test-support/harness.js';
import { listenEach } from './listen-each.js';

const live = listenEach({ workers: false });

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const generate = (body: Record<string, unknown>) =>
  fetch(`${live.server.origin}/v1/images/generations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('OpenAI b64_json answers', () => {
  it('builds megabytes of base64 off the event loop: a timer stays on time, and the answer is valid JSON', async () => {
    await live.h.deps.codec.base64(new Uint8Array(3)); // the pool's thread is started, so only the answer is measured
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const response = await generate({ model: 'local/procedural', prompt: 'a storm over a wide sea', size: '2048x2048', n: 2, response_format: 'b64_json' });
    const bytes = await response.arrayBuffer();
    delay.disable();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { created: number; data: { b64_json: string }[] };
    expect(body.created).toBe(Math.floor(live.h.clock.now().getTime() / 1000));
    expect(body.data).toHaveLength(2);
    for (const item of body.data) expect([...Buffer.from(item.b64_json, 'base64').subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(bytes.byteLength).toBeGreaterThan(2_000_000);
    // Encoding this on the event loop stalled it for hundreds of milliseconds per image; in the pool the loop
    // only moves buffers. Generous, so a busy shared machine (or a garbage collection) does not fail it.
    expect(delay.max / 1e6).toBeLessThan(400);
  }, 120_000);

  it('replays a streamed b64_json answer under an Idempotency-Key byte for byte', async () => {
    const body = { model: 'local/procedural', prompt: 'a small boat', size: '64x64', n: 2, response_format: 'b64_json' };
    const first = await live.h.call('POST', '/v1/images/generations', body, { 'Idempotency-Key': 'b64-once' });
    const again = await live.h.call('POST', '/v1/images/generations', body, { 'Idempotency-Key': 'b64-once' });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const text = await first.text();
    expect(await again.text()).toBe(text);
    expect((JSON.parse(text) as { data: unknown[] }).data).toHaveLength(2);
    expect((await json<{ images: unknown[] }>(await live.h.call('GET', '/api/images'))).images).toHaveLength(2);
  });

  it('refuses a b64_json request past the pixel cap with a 400 naming the limit and what to send, making nothing', async () => {
    const response = await generate({ model: 'local/procedural', prompt: 'a storm over a wide sea', size: '2048x2048', n: 10, response_format: 'b64_json' });
    expect(response.status).toBe(400);
    const { error } = await json<{ error: { message: string; param: string; type: string } }>(response);
    expect(error).toMatchObject({ param: 'n', type: 'invalid_request_error' });
    expect(error.message).toContain(MAX_B64_PIXELS_PER_REQUEST.toLocaleString('en-US'));
    expect(error.message).toMatch(/n of 4 or less/);
    expect(error.message).toMatch(/response_format url/);
    expect((await json<{ images: unknown[] }>(await live.h.call('GET', '/api/images'))).images).toHaveLength(0);
  });
});
