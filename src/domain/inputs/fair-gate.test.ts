import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { FairGate } from './fair-gate.js';

const gate = (options: Partial<ConstructorParameters<typeof FairGate>[0]> = {}) =>
  new FairGate({ total: 2, perKey: 1, queuePerKey: 50, queueTotal: 100, what: 'uploads', ...options });

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FairGate', () => {
  it('serves a second key’s one request before the first key’s many waiting ones', async () => {
    const g = gate({ total: 1 });
    const order: string[] = [];
    await g.acquire('a');
    const waiting = [1, 2, 3].map((n) => g.acquire('a').then(() => order.push(`a${n}`)));
    const other = g.acquire('b').then(() => order.push('b'));
    for (let turn = 0; turn < 4; turn++) {
      g.release(turn === 0 ? 'a' : (order.at(-1) ?? 'a').slice(0, 1));
      await settle();
    }
    await Promise.all([...waiting, other]);
    expect(order).toEqual(['a1', 'b', 'a2', 'a3']);
  });

  it('lets one key hold no more than its share while another key still gets a slot at once', async () => {
    const g = gate({ total: 3, perKey: 2 });
    await g.acquire('a');
    await g.acquire('a');
    let third = false;
    void g.acquire('a').then(() => (third = true));
    await g.acquire('b');
    await settle();
    expect(third).toBe(false);
    expect(g.load).toEqual({ running: 3, waiting: 1 });
  });

  it('refuses a key whose queue is full with 429 and Retry-After, and the server’s with 503', async () => {
    const g = gate({ total: 1, queuePerKey: 1, queueTotal: 2 });
    await g.acquire('a');
    void g.acquire('a');
    const own = await g.acquire('a').catch((error: unknown) => error);
    expect(own).toBeInstanceOf(ApiError);
    expect((own as ApiError).code).toBe('RATE_LIMITED');
    expect((own as ApiError).retryAfterSeconds).toBeGreaterThan(0);
    void g.acquire('b');
    const server = await g.acquire('c').catch((error: unknown) => error);
    expect((server as ApiError).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('takes a caller that gave up out of the queue, and gives the slot back however the work ends', async () => {
    const g = gate({ total: 1 });
    await g.acquire('a');
    const controller = new AbortController();
    const gaveUp = g.acquire('b', controller.signal).catch((error: unknown) => error);
    controller.abort(new Error('client gone'));
    expect(await gaveUp).toEqual(new Error('client gone'));
    expect(g.load).toEqual({ running: 1, waiting: 0 });
    g.release('a');
    await expect(g.run('c', () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    expect(g.load).toEqual({ running: 0, waiting: 0 });
  });
});
