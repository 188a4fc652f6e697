import { describe, expect, it } from 'vitest';
import {
  ProviderJobAbandoned,
  ProviderRefusal,
  ProviderUnavailable,
  type CallJournal,
  type ImageProvider,
  type ProviderImage,
} from '../../../ports/image-provider.js';
import { withResilience } from './resilient-provider.js';

const image: ProviderImage = { bytes: new Uint8Array([1]), contentType: 'image/png' };
const request = { providerModel: 'm', prompt: 'a cat', width: 64, height: 64, seed: 1 };
const unavailable = (status = 503) => new ProviderUnavailable(`fake answered ${status}`, status);
/** A status check whose answer was lost: undici's error for a connection closed before the answer. */
const reset = () => new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });

describe('withResilience and accepted jobs', () => {
  /** A provider whose first attempt accepts a job and then fails as a status check would; it records each journal. */
  function jobProvider(outcomes: (Error | 'ok')[], timeoutMs = 1_000) {
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
    let clock = 0;
    const wrapped = withResilience(provider, {
      timeoutMs,
      retries: 2,
      baseDelayMs: 100,
      maxDelayMs: 100,
      maxConcurrent: 1,
      breakerThreshold: 3,
      breakerCooldownMs: 1_000,
      random: () => 1,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
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

  it('follows an accepted job past the retry budget (its status checks are safe to repeat), and past an open breaker', async () => {
    const p = jobProvider([unavailable(502), unavailable(502), unavailable(502), reset(), unavailable(429), 'ok']);
    await expect(p.wrapped.generate(request)).resolves.toBe(image);
    expect(p.created).toEqual(['job-1']);
    expect(p.cancelled).toEqual([]);
  });

  it('cancels the job once when the deadline passes, and reports it abandoned: the provider bills it', async () => {
    const p = jobProvider(
      Array.from({ length: 20 }, () => unavailable()),
      1_000,
    );
    const error = await p.wrapped.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderJobAbandoned);
    expect(error).toMatchObject({ status: 504, message: expect.stringContaining('job-1') });
    expect(p.created).toEqual(['job-1']);
    expect(p.cancelled).toEqual(['job-1']);
  });

  it('resumes the job of a journal it is handed (a crashed call picked up again) and never creates another', async () => {
    const p = jobProvider(['ok']);
    const journal: CallJournal = { job: { id: 'job-from-before' } };
    await expect(p.wrapped.generate(request, { journal })).resolves.toBe(image);
    expect(p.created).toEqual([]);
  });

  it('cancels the job when the answer is a refusal', async () => {
    const refused = jobProvider([new ProviderRefusal('nsfw')]);
    await expect(refused.wrapped.generate(request)).rejects.toBeInstanceOf(ProviderRefusal);
    expect(refused.cancelled).toEqual(['job-1']);
  });
});
