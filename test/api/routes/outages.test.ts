import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { eventually } from '../../../src/test-support/webhook-receiver.js';
import { DependencyUnavailable } from '../../../src/ports/dependency-unavailable.js';

/**
 * How the API answers while a dependency is out, through the harness: the adapters' own classification
 * (a real pg or Redis error becoming DependencyUnavailable) is covered by the end-to-end tests.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ jobRetry: { attempts: 6, backoffMs: 100 } });
});
afterAll(async () => {
  await h.close();
});

const down =
  (dependency: 'database' | 'redis' = 'database') =>
  () =>
    Promise.reject(new DependencyUnavailable(dependency, `the ${dependency} is unavailable (Connection terminated unexpectedly)`));

/** Runs `body` with `target[name]` replaced, putting it back afterwards. */
async function replaced<T extends object, K extends keyof T>(target: T, name: K, value: T[K], body: () => Promise<void>): Promise<void> {
  const original = target[name];
  target[name] = value;
  try {
    await body();
  } finally {
    target[name] = original;
  }
}

describe('a request that needs the database while it is unreachable', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, naming the database and not its error', async () => {
    await replaced(h.deps.db.images, 'listLive', down(), async () => {
      const res = await h.call('GET', '/api/images');
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('5');
      const body = await json<{ code: string; details: { dependency: string; message: string } }>(res);
      expect(body.code).toBe('SERVICE_UNAVAILABLE');
      expect(body.details.dependency).toBe('database');
      expect(JSON.stringify(body)).not.toContain('Connection terminated');
    });
  });

  it('keeps a generation whose record cannot be written: 202 to a caller who waits, the image recorded once the database is back', async () => {
    let generation = '';
    await replaced(h.deps.db.generations, 'succeed', down(), async () => {
      const res = await h.app.request('/api/generate', {
        method: 'POST',
        headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json', Prefer: 'wait=1' },
        body: JSON.stringify({ prompt: 'a quiet harbour', width: 64, height: 64 }),
      });
      expect(res.status).toBe(202);
      expect(res.headers.get('Preference-Applied')).toBe('wait=1');
      generation = res.headers.get('Location') ?? '';
      expect(generation).toMatch(/^\/api\/generations\/gen_/);
    });
    // The job runs again after its backoff (clock time on the database queue) and records what it stored.
    const done = await eventually(async () => {
      h.clock.advance(1_000);
      const body = await json<{ status: string; image?: { prompt: string } }>(await h.call('GET', generation));
      return body.status === 'succeeded' ? body : undefined;
    }, 15_000);
    expect(done.image?.prompt).toBe('a quiet harbour');
  });

  it('answers /v1 503 with Retry-After when the record cannot be written, telling OpenAI clients not to send it again', async () => {
    await replaced(h.deps.db.generations, 'succeed', down(), async () => {
      const res = await h.call('POST', '/v1/images/generations', { prompt: 'a quiet harbour', size: '256x256' });
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('5');
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(await json(res)).toMatchObject({ error: { code: 'generation_delayed' } });
    });
  });
});

describe('a rate limiter whose store is unreachable', () => {
  it('fails the request closed: 503 with Retry-After, never 500', async () => {
    await replaced(h.deps.rateLimiter, 'consume', down('redis'), async () => {
      const res = await h.call('GET', '/api/images');
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('5');
      expect(await json(res)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { dependency: 'redis' } });
    });
  });
});

describe('health and readiness', () => {
  it('/health answers 200 { status: "ok" } while the process runs, even with the database out', async () => {
    await replaced(h.deps.db, 'ping', down(), async () => {
      const res = await h.app.request('/health');
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ status: 'ok' });
    });
  });

  it('/health/ready answers 200 ready with every check ok when the dependencies answer', async () => {
    const res = await h.app.request('/health/ready');
    expect(res.status).toBe(200);
    const body = await json<{ status: string; checks: Record<string, string> }>(res);
    expect(body.status).toBe('ready');
    expect(body.checks).toMatchObject({ database: 'ok', storage: 'ok' });
    expect(Object.values(body.checks).every((result) => result === 'ok')).toBe(true);
  });

  it('/health/ready answers 503 naming the database when it does not answer', async () => {
    await replaced(h.deps.db, 'ping', down(), async () => {
      const res = await h.app.request('/health/ready');
      expect(res.status).toBe(503);
      expect(await json(res)).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable', storage: 'ok' } });
    });
  });

  it('/health/ready answers 503 naming storage when it refuses writes, probing at most every 5 s, and 200 once it takes them again', async () => {
    // A fresh harness: the probe's answer is cached for 5 s of the test clock.
    await h.close();
    h = await createHarness({ storage: 'memory' });
    let puts = 0;
    await replaced(
      h.deps.blobs,
      'put',
      () => ((puts += 1), Promise.reject(new Error('AccessDenied: write refused'))),
      async () => {
        const res = await h.app.request('/health/ready');
        expect(res.status).toBe(503);
        expect(await json(res)).toMatchObject({ checks: { database: 'ok', storage: 'unavailable' } });
        expect((await h.app.request('/health/ready')).status).toBe(503);
        expect(puts).toBe(1);
      },
    );
    expect((await h.app.request('/health/ready')).status).toBe(503);
    h.clock.advance(5_000);
    const recovered = await h.app.request('/health/ready');
    expect(recovered.status).toBe(200);
    expect(await h.blobs.keys()).toEqual([]);
  });

  it('/health/live answers 200 while the process runs, whatever the database does', async () => {
    await replaced(h.deps.db, 'ping', down(), async () => {
      const res = await h.app.request('/health/live');
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ status: 'ok' });
    });
  });

  it('/health/ready answers 503 within its timeout when a check never answers', async () => {
    const started = Date.now();
    await replaced(
      h.deps.db,
      'ping',
      () => new Promise<void>(() => undefined),
      async () => {
        const res = await h.app.request('/health/ready');
        expect(res.status).toBe(503);
        expect(await json(res)).toMatchObject({ checks: { database: expect.stringMatching(/no answer within \d+ ms/) } });
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
