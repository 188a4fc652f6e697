import { describe, expect, it } from 'vitest';
import {
  ProviderAccountProblem,
  ProviderCircuitOpen,
  ProviderOutcomeUnknown,
  ProviderRefusal,
  ProviderUnavailable,
  type ImageProvider,
  type ProviderImage,
} from '../../../ports/image-provider.js';
import { withResilience, type ResilienceOptions } from './resilient-provider.js';

const image: ProviderImage = { bytes: new Uint8Array([1]), contentType: 'image/png' };
const request = { providerModel: 'm', prompt: 'a cat', width: 64, height: 64, seed: 1 };

/** A provider that plays a script: each call takes the next step (an error to throw, or 'ok'). */
function scripted(steps: (Error | 'ok' | 'hang')[]) {
  let calls = 0;
  const provider: ImageProvider = {
    id: 'fake',
    generate: (_request, options) => {
      const step = steps[calls] ?? 'ok';
      calls += 1;
      if (step === 'ok') return Promise.resolve(image);
      if (step === 'hang') {
        return new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true }));
      }
      return Promise.reject(step);
    },
  };
  return { provider, calls: () => calls };
}

function harness(steps: (Error | 'ok' | 'hang')[], overrides: Partial<ResilienceOptions> = {}) {
  let clock = 0;
  const sleeps: number[] = [];
  const fake = scripted(steps);
  const provider = withResilience(fake.provider, {
    timeoutMs: 1_000,
    retries: 2,
    baseDelayMs: 100,
    maxDelayMs: 1_000,
    maxConcurrent: 2,
    breakerThreshold: 3,
    breakerCooldownMs: 30_000,
    now: () => clock,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    ...overrides,
  });
  return { provider, fake, sleeps, advance: (ms: number) => (clock += ms) };
}

const unavailable = (status = 503, retryAfterMs?: number) => new ProviderUnavailable(`fake answered ${status}`, status, retryAfterMs);
/** What undici's fetch throws for a connection error, with the code it names in `cause`. */
const fetchFailed = (code: string, message = code) => new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
const refused = () => fetchFailed('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:443');
const reset = () => fetchFailed('UND_ERR_SOCKET', 'other side closed');

describe('withResilience', () => {
  it('retries a 5xx with exponential backoff and full jitter, then succeeds', async () => {
    const h = harness([unavailable(), unavailable(), 'ok']);
    await expect(h.provider.generate(request)).resolves.toBe(image);
    expect(h.fake.calls()).toBe(3);
    expect(h.sleeps).toEqual([50, 100]);
  });

  it("honours the provider's Retry-After on a 429 beyond the maximum delay, while the deadline allows", async () => {
    const h = harness([unavailable(429, 700), unavailable(429, 3_000), 'ok'], { timeoutMs: 10_000 });
    await h.provider.generate(request);
    expect(h.sleeps).toEqual([700, 3_000]);
  });

  it('passes a Retry-After that would outlast the deadline on at once, without waiting', async () => {
    const h = harness([unavailable(429, 700), unavailable(429, 60_000), 'ok']);
    const error = await h.provider.generate(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 60_000 });
    expect(h.sleeps).toEqual([700]);
    expect(h.fake.calls()).toBe(2);
  });

  it('bounds the whole call by the deadline, not each attempt: no wait runs past it', async () => {
    const h = harness([unavailable(), unavailable(), unavailable(), unavailable(), unavailable(), 'ok'], { retries: 10, breakerThreshold: 10 });
    await expect(h.provider.generate(request)).rejects.toThrow('fake answered 503');
    // Backoff 50, 100, 200, 400 (750 of the 1,000 ms); the next, 500, would pass the deadline.
    expect(h.sleeps).toEqual([50, 100, 200, 400]);
    expect(h.fake.calls()).toBe(5);
  });

  it('does not count 429s against the provider: the breaker stays closed', async () => {
    const h = harness([unavailable(429), unavailable(429), unavailable(429), unavailable(429), 'ok'], { retries: 0 });
    for (let i = 0; i < 4; i += 1) await expect(h.provider.generate(request)).rejects.toMatchObject({ status: 429 });
    await expect(h.provider.generate(request)).resolves.toBe(image);
  });

  it('gives up after the configured retries with the last error', async () => {
    const h = harness([unavailable(500), unavailable(502), unavailable(503), 'ok']);
    await expect(h.provider.generate(request)).rejects.toThrow('fake answered 503');
    expect(h.fake.calls()).toBe(3);
  });

  it('never retries a refusal, and a refusal does not count against the provider', async () => {
    const h = harness([new ProviderRefusal('content filtered'), new ProviderRefusal('x'), new ProviderRefusal('x'), new ProviderRefusal('x'), 'ok']);
    for (let i = 0; i < 4; i += 1) await expect(h.provider.generate(request)).rejects.toBeInstanceOf(ProviderRefusal);
    expect(h.fake.calls()).toBe(4);
    await expect(h.provider.generate(request)).resolves.toBe(image);
  });

  it('retries a connection the provider never accepted, but not other failures', async () => {
    const network = harness([refused(), fetchFailed('ENOTFOUND'), fetchFailed('UND_ERR_CONNECT_TIMEOUT'), 'ok'], { retries: 3, breakerThreshold: 10 });
    await expect(network.provider.generate(request)).resolves.toBe(image);
    const other = harness([new Error('malformed answer'), 'ok']);
    await expect(other.provider.generate(request)).rejects.toThrow('malformed answer');
    expect(other.fake.calls()).toBe(1);
  });

  it('never sends a request again once its answer was lost (a reset after it was sent): the outcome is unknown', async () => {
    const h = harness([reset(), 'ok']);
    const error = await h.provider.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: false, message: expect.stringContaining('other side closed') });
    expect(h.fake.calls()).toBe(1);
  });

  it("never sends a request again after a gateway's 504: it may have reached the provider", async () => {
    const h = harness([unavailable(504), 'ok']);
    expect(await h.provider.generate(request).catch((e: unknown) => e)).toMatchObject({ name: 'ProviderOutcomeUnknown', timedOut: true });
    expect(h.fake.calls()).toBe(1);
  });

  it('reports an attempt still hanging at the deadline as an unknown outcome, naming the provider', async () => {
    const h = harness(['hang'], { timeoutMs: 50, retries: 2 });
    const error = await h.provider.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: true, message: expect.stringContaining('fake did not answer within 0 s') });
    expect(h.fake.calls()).toBe(1);
  });

  it('answers 504 (nothing sent, nothing charged) when the deadline passes while waiting to retry', async () => {
    const waitForAbort = (_ms: number, signal?: AbortSignal) =>
      new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const h = harness([unavailable(503), 'ok'], { timeoutMs: 100, sleep: waitForAbort });
    const error = await h.provider.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).not.toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ status: 504, message: expect.stringContaining('fake answered 503') });
    expect(h.fake.calls()).toBe(1);
  });

  it('reports a call its caller gave up on mid-request as an unknown outcome: the request may have reached the provider', async () => {
    const h = harness(['hang']);
    const caller = new AbortController();
    const pending = h.provider.generate(request, { signal: caller.signal }).catch((e: unknown) => e);
    await expect.poll(() => h.fake.calls()).toBe(1);
    caller.abort(new Error('client disconnected'));
    expect(await pending).toMatchObject({ name: 'ProviderOutcomeUnknown', timedOut: false, message: expect.stringContaining('client disconnected') });
  });

  it('sends nothing for a caller that left before its turn, and says why', async () => {
    const h = harness(['ok']);
    await expect(h.provider.generate(request, { signal: AbortSignal.abort(new Error('client disconnected')) })).rejects.toThrow('client disconnected');
    expect(h.fake.calls()).toBe(0);
  });

  it('opens the breaker after repeated failures, answers fast, and recovers after the cooldown', async () => {
    const h = harness([unavailable(), unavailable(), unavailable(), 'ok', 'ok'], { retries: 0 });
    for (let i = 0; i < 3; i += 1) await expect(h.provider.generate(request)).rejects.toThrow('fake answered 503');
    await expect(h.provider.generate(request)).rejects.toThrow(/failing repeatedly; not calling it for another 30 s/);
    expect(h.fake.calls()).toBe(3);
    h.advance(30_000);
    await expect(h.provider.generate(request)).resolves.toBe(image);
    await expect(h.provider.generate(request)).resolves.toBe(image);
    expect(h.fake.calls()).toBe(5);
  });

  it('re-opens the breaker when the trial call after the cooldown fails', async () => {
    const h = harness([unavailable(), unavailable(), unavailable(), unavailable(), 'ok'], { retries: 0 });
    for (let i = 0; i < 3; i += 1) await expect(h.provider.generate(request)).rejects.toThrow();
    h.advance(30_000);
    await expect(h.provider.generate(request)).rejects.toThrow('fake answered 503');
    await expect(h.provider.generate(request)).rejects.toThrow(/failing repeatedly/);
  });

  it('caps concurrent calls per provider', async () => {
    let running = 0;
    let peak = 0;
    const slow: ImageProvider = {
      id: 'slow',
      generate: async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        return image;
      },
    };
    const provider = withResilience(slow, {
      timeoutMs: 1_000,
      retries: 0,
      baseDelayMs: 1,
      maxDelayMs: 1,
      maxConcurrent: 2,
      breakerThreshold: 5,
      breakerCooldownMs: 1_000,
    });
    await Promise.all(Array.from({ length: 6 }, () => provider.generate(request)));
    expect(peak).toBe(2);
  });

  it("serves calls waiting for a slot round robin between shares, so one key's thirty cannot keep another's one behind them", async () => {
    const started: string[] = [];
    const held: (() => void)[] = [];
    const gated: ImageProvider = {
      id: 'gated',
      generate: async (call) => {
        started.push(call.prompt);
        await new Promise<void>((resolve) => held.push(resolve));
        return image;
      },
    };
    const provider = withResilience(gated, {
      timeoutMs: 60_000,
      retries: 0,
      baseDelayMs: 1,
      maxDelayMs: 1,
      maxConcurrent: 1,
      breakerThreshold: 5,
      breakerCooldownMs: 1_000,
    });
    const call = (prompt: string, share?: string) => provider.generate({ ...request, prompt }, share === undefined ? {} : { share });
    const calls = [...Array.from({ length: 30 }, (_, n) => call(`a${n}`, 'key_a')), call('b0', 'key_b'), call('b1', 'key_b'), call('n0'), call('n1')];
    for (let turn = 0; turn < calls.length; turn += 1) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      held.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await Promise.all(calls);
    // a0 had the slot; then each share with waiters in turn (calls without one are a share of their own), each in order.
    expect(started.slice(0, 8)).toEqual(['a0', 'a1', 'b0', 'n0', 'a2', 'b1', 'n1', 'a3']);
    expect(started.slice(8)).toEqual(Array.from({ length: 26 }, (_, n) => `a${n + 4}`));
  });

  it('never retries an account problem, and does not hold it against the provider', async () => {
    const problem = new ProviderAccountProblem('fake answered 402 (out of credit)', 402);
    const h = harness([problem, problem, problem, problem, 'ok'], { breakerThreshold: 3 });
    for (let i = 0; i < 4; i += 1) await expect(h.provider.generate(request)).rejects.toBe(problem);
    expect(h.fake.calls()).toBe(4);
    await expect(h.provider.generate(request)).resolves.toBe(image);
  });

  it('says how long an open breaker stays open', async () => {
    const h = harness([unavailable(), unavailable(), unavailable()], { retries: 0 });
    for (let i = 0; i < 3; i += 1) await expect(h.provider.generate(request)).rejects.toThrow();
    h.advance(12_000);
    const error = await h.provider.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCircuitOpen);
    expect(error).toMatchObject({ status: 503, retryAfterMs: 18_000 });
  });

  it('turns a provider that cannot be reached into a ProviderUnavailable once the retries are spent', async () => {
    const h = harness([refused(), refused(), refused()]);
    const error = await h.provider.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(String(error)).toContain('fake could not be reached: fetch failed: connect ECONNREFUSED');
  });
});
