import { describe, expect, it } from 'vitest';
import {
  ProviderAccountProblem,
  ProviderCircuitOpen,
  ProviderRefusal,
  ProviderUnavailable,
  type CallJournal,
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

describe('withResilience', () => {
  it('retries a 5xx with exponential backoff and full jitter, then succeeds', async () => {
    const h = harness([unavailable(), unavailable(), 'ok']);
    await expect(h.provider.generate(request)).resolves.toBe(image);
    expect(h.fake.calls()).toBe(3);
    expect(h.sleeps).toEqual([50, 100]);
  });

  it("honours the provider's Retry-After on a 429, capped at the maximum delay", async () => {
    const h = harness([unavailable(429, 700), unavailable(429, 60_000), 'ok']);
    await h.provider.generate(request);
    expect(h.sleeps).toEqual([700, 1_000]);
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

  it('retries network errors but not other failures', async () => {
    const network = harness([new TypeError('fetch failed'), 'ok']);
    await expect(network.provider.generate(request)).resolves.toBe(image);
    const other = harness([new Error('malformed answer'), 'ok']);
    await expect(other.provider.generate(request)).rejects.toThrow('malformed answer');
    expect(other.fake.calls()).toBe(1);
  });

  it('times out an attempt that hangs, naming the provider', async () => {
    const h = harness(['hang'], { timeoutMs: 50, retries: 0 });
    await expect(h.provider.generate(request)).rejects.toThrow('fake did not answer within 0 s');
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
    const provider = withResilience(slow, { timeoutMs: 1_000, retries: 0, baseDelayMs: 1, maxDelayMs: 1, maxConcurrent: 2, breakerThreshold: 5, breakerCooldownMs: 1_000 });
    await Promise.all(Array.from({ length: 6 }, () => provider.generate(request)));
    expect(peak).toBe(2);
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
    const h = harness([new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed')]);
    const error = await h.provider.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(String(error)).toContain('fake could not be reached: fetch failed');
  });
});

describe('withResilience and accepted jobs', () => {
  /** A provider whose first attempt accepts a job and then fails as a status check would; it records each journal. */
  function jobProvider(outcomes: (Error | 'ok')[]) {
    const journals: CallJournal[] = [];
    const created: string[] = [];
    const cancelled: string[] = [];
    let call = 0;
    const provider: ImageProvider = {
      id: 'jobs',
      generate: (_request, options) => {
        const journal = options?.journal ?? {};
        journals.push(journal);
        if (journal.job === undefined) {
          journal.job = { id: `job-${created.length + 1}` };
          created.push(journal.job.id);
        }
        const outcome = outcomes[call] ?? 'ok';
        call += 1;
        return outcome === 'ok' ? Promise.resolve(image) : Promise.reject(outcome);
      },
      cancel: (journal) => {
        if (journal.job !== undefined) cancelled.push(journal.job.id);
      },
    };
    const wrapped = withResilience(provider, { timeoutMs: 1_000, retries: 2, baseDelayMs: 1, maxDelayMs: 1, maxConcurrent: 1, breakerThreshold: 10, breakerCooldownMs: 1_000, sleep: async () => undefined });
    return { wrapped, journals, created, cancelled };
  }

  it('gives every attempt of one call the same journal, so a retry resumes the job instead of creating one', async () => {
    const p = jobProvider([unavailable(503), unavailable(502), 'ok']);
    await expect(p.wrapped.generate(request)).resolves.toBe(image);
    expect(p.journals).toHaveLength(3);
    expect(new Set(p.journals).size).toBe(1);
    expect(p.created).toEqual(['job-1']);
    expect(p.cancelled).toEqual([]);
  });

  it('starts each call with a fresh journal', async () => {
    const p = jobProvider(['ok', 'ok']);
    await p.wrapped.generate(request);
    await p.wrapped.generate(request);
    expect(p.created).toEqual(['job-1', 'job-2']);
  });

  it('cancels the job a call gives up on, once', async () => {
    const p = jobProvider([unavailable(), unavailable(), unavailable()]);
    await expect(p.wrapped.generate(request)).rejects.toThrow('fake answered 503');
    expect(p.created).toEqual(['job-1']);
    expect(p.cancelled).toEqual(['job-1']);
  });

  it('cancels the job when the answer is a refusal', async () => {
    const refused = jobProvider([new ProviderRefusal('nsfw')]);
    await expect(refused.wrapped.generate(request)).rejects.toBeInstanceOf(ProviderRefusal);
    expect(refused.cancelled).toEqual(['job-1']);
  });
});
