import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import { createHarness, json, TEST_KEY, testCpuPool, type Harness } from '../../../src/test-support/harness.js';
import { listen } from '../../e2e/clients/listen.js';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { CLAIM_LEASE } from '../../../src/http/middleware/idempotency.js';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const BODY = { prompt: 'a lighthouse on a cliff', model: 'local/procedural', width: 64, height: 64 };
const withKey = (key: string) => ({ 'Idempotency-Key': key });
const imageCount = async () => (await json<{ pagination: { total: number } }>(await h.call('GET', '/api/images'))).pagination.total;

/** The offline provider, held at a gate until the test opens it: a request that is "still running". */
function gatedProvider(): { provider: ImageProvider; open: () => void; started: Promise<void> } {
  const real = createProceduralProvider(testCpuPool());
  let open = () => undefined as void;
  let markStarted = () => undefined as void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  return {
    open: () => open(),
    started,
    provider: { id: 'local', generate: async (request, options) => (markStarted(), await gate, real.generate(request, options)) },
  };
}

describe('Idempotency-Key', () => {
  it('replays the first answer (status, body, headers) with Idempotent-Replayed, making one image only', async () => {
    h = await createHarness({ workers: false });
    const first = await h.call('POST', '/api/generate', BODY, withKey('gen-1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const second = await h.call('POST', '/api/generate', BODY, withKey('gen-1'));
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.headers.get('Content-Type')).toMatch(/application\/json/);
    expect(await second.text()).toBe(await first.text());
    expect(await imageCount()).toBe(1);
    // Without the key, or with another one, every call generates.
    expect((await h.call('POST', '/api/generate', BODY, withKey('gen-2'))).headers.get('Idempotent-Replayed')).toBeNull();
    expect(await imageCount()).toBe(2);
  });

  it('refuses the same key with a different body (422) or on another endpoint', async () => {
    h = await createHarness({ workers: false });
    expect((await h.call('POST', '/api/generate', BODY, withKey('k'))).status).toBe(201);
    const other = await h.call('POST', '/api/generate', { ...BODY, prompt: 'a red fox' }, withKey('k'));
    expect(other.status).toBe(422);
    expect(await json(other)).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    const batch = await h.call('POST', '/api/batch/generate', { prompts: ['a red fox'], model: 'local/procedural', width: 64, height: 64 }, withKey('k'));
    expect(batch.status).toBe(422);
    expect(await imageCount()).toBe(1);
  });

  it('answers 409 with Retry-After while the first request still runs, then replays its answer', async () => {
    const gated = gatedProvider();
    h = await createHarness({ workers: false, providers: { local: gated.provider } });
    const first = h.call('POST', '/api/generate', BODY, withKey('slow'));
    await gated.started;
    const during = await h.call('POST', '/api/generate', BODY, withKey('slow'));
    expect(during.status).toBe(409);
    // The end of the claim's lease, not a second: sooner would only find it running again.
    expect(during.headers.get('Retry-After')).toBe(String(CLAIM_LEASE.ms / 1000));
    expect(await json(during)).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    gated.open();
    expect((await first).status).toBe(201);
    const after = await h.call('POST', '/api/generate', BODY, withKey('slow'));
    expect(after.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await imageCount()).toBe(1);
  });

  it('frees the key of a crashed request once its lease ends, and Retry-After counts down to that', async () => {
    h = await createHarness({ workers: false });
    // What a process that died mid-request leaves: a running claim nobody renews.
    const fingerprint = createHash('sha256')
      .update(`POST\n/api/generate\n${JSON.stringify(BODY)}`)
      .digest('hex');
    const now = h.clock.now();
    await h.deps.db.idempotency.claim({
      userId: 'admin',
      key: 'crashed',
      fingerprint,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + CLAIM_LEASE.ms).toISOString(),
    });
    const during = await h.call('POST', '/api/generate', BODY, withKey('crashed'));
    expect(during.status).toBe(409);
    expect(during.headers.get('Retry-After')).toBe('15');
    expect(await json(during)).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS', details: { retry_after_seconds: 15 } });
    h.clock.advance(11_000);
    expect((await h.call('POST', '/api/generate', BODY, withKey('crashed'))).headers.get('Retry-After')).toBe('4');
    h.clock.advance(4_000);
    const after = await h.call('POST', '/api/generate', BODY, withKey('crashed'));
    expect(after.status).toBe(201);
    expect(after.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await imageCount()).toBe(1);
  });

  it('renews the lease of a request that is still running, however long it takes', async () => {
    const gated = gatedProvider();
    h = await createHarness({ workers: false, providers: { local: gated.provider }, idempotencyLease: { ms: CLAIM_LEASE.ms, renewEveryMs: 20 } });
    const first = h.call('POST', '/api/generate', BODY, withKey('long'));
    await gated.started;
    h.clock.advance(10 * 60 * 1000); // far past the first lease's end: only renewals keep the claim
    await new Promise((resolve) => setTimeout(resolve, 200));
    const during = await h.call('POST', '/api/generate', BODY, withKey('long'));
    expect(during.status).toBe(409);
    expect(Number(during.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(Number(during.headers.get('Retry-After'))).toBeLessThanOrEqual(CLAIM_LEASE.ms / 1000);
    gated.open();
    expect((await first).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 100)); // a renewal now would find the answer, not a claim
    h.clock.advance(60 * 60 * 1000);
    expect((await h.call('POST', '/api/generate', BODY, withKey('long'))).headers.get('Idempotent-Replayed')).toBe('true');
    expect(await imageCount()).toBe(1);
  });

  it('replays to a client that hung up and retries the generation it started, which ran on: one image, never two', async () => {
    const gated = gatedProvider();
    h = await createHarness({ workers: false, providers: { local: gated.provider } });
    const server = await listen(h);
    try {
      const body = JSON.stringify(BODY);
      const socket = net.connect(Number(new URL(server.origin).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `POST /api/generate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nIdempotency-Key: hung-up\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await gated.started;
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200)); // the server sees the hang-up
      gated.open();
      const retry = await vi.waitFor(
        async () => {
          const answer = await h.call('POST', '/api/generate', BODY, withKey('hung-up'));
          expect(answer.headers.get('Idempotent-Replayed')).toBe('true');
          return answer;
        },
        { timeout: 5000, interval: 100 },
      );
      // The first answer, 202, says where the generation the hang-up left running is.
      expect(retry.status).toBe(202);
      const location = retry.headers.get('Location') ?? '';
      await h.deps.queue.drain();
      expect(await json(await h.call('GET', location))).toMatchObject({ status: 'succeeded', image: { prompt: BODY.prompt } });
      expect(await imageCount()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('forgets an answer after 24 hours: the key then runs a new request', async () => {
    h = await createHarness({ workers: false });
    await h.call('POST', '/api/generate', BODY, withKey('day'));
    h.clock.advance(23 * 60 * 60 * 1000);
    expect((await h.call('POST', '/api/generate', BODY, withKey('day'))).headers.get('Idempotent-Replayed')).toBe('true');
    h.clock.advance(60 * 60 * 1000 + 1);
    const fresh = await h.call('POST', '/api/generate', { ...BODY, prompt: 'a new day' }, withKey('day'));
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await imageCount()).toBe(2);
  });

  it('stores a 4xx answer, and releases the key after a 5xx so a retry runs', async () => {
    let fail = true;
    const real = createProceduralProvider(testCpuPool());
    const flaky: ImageProvider = {
      id: 'local',
      generate: async (request, options) => (fail ? Promise.reject(new Error('boom')) : real.generate(request, options)),
    };
    h = await createHarness({ workers: false, providers: { local: flaky } });
    const invalid = await h.call('POST', '/api/generate', { ...BODY, width: 4096 }, withKey('bad'));
    expect(invalid.status).toBe(400);
    expect((await h.call('POST', '/api/generate', { ...BODY, width: 4096 }, withKey('bad'))).headers.get('Idempotent-Replayed')).toBe('true');
    expect((await h.call('POST', '/api/generate', BODY, withKey('flaky'))).status).toBe(500);
    fail = false;
    const retried = await h.call('POST', '/api/generate', BODY, withKey('flaky'));
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('keeps keys per user, checks the key, and works on batches and /v1', async () => {
    h = await createHarness({ workers: false });
    const tooLong = await h.call('POST', '/api/generate', BODY, withKey('x'.repeat(256)));
    expect(tooLong.status).toBe(400);
    expect(await json(tooLong)).toMatchObject({ details: { field: 'Idempotency-Key' } });
    expect((await h.call('POST', '/api/generate', BODY, withKey('caf\u00e9'))).status).toBe(400);

    const batchBody = { prompts: ['a red fox'], model: 'local/procedural', width: 64, height: 64 };
    const batch = await json<{ id: string }>(await h.call('POST', '/api/batch/generate', batchBody, withKey('b')));
    const again = await h.call('POST', '/api/batch/generate', batchBody, withKey('b'));
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await json<{ id: string }>(again)).id).toBe(batch.id);
    expect((await json<{ pagination: { total: number } }>(await h.call('GET', '/api/batch'))).pagination.total).toBe(1);

    const v1 = { prompt: 'a lake', model: 'local/procedural', size: '64x64' };
    const one = await h.call('POST', '/v1/images/generations', v1, withKey('o'));
    const two = await h.call('POST', '/v1/images/generations', v1, withKey('o'));
    expect(two.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await two.text()).toBe(await one.text());
    const reused = await h.call('POST', '/v1/images/generations', { ...v1, n: 2 }, withKey('o'));
    expect(reused.status).toBe(422);
    expect(await json(reused)).toMatchObject({ error: { code: 'idempotency_key_reused' } });
  });
});
