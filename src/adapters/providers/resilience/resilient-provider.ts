import {
  ProviderCircuitOpen,
  ProviderJobAbandoned,
  ProviderOutcomeUnknown,
  ProviderUnavailable,
  type CallJournal,
  type ImageProvider,
  type PartialImages,
  type ProviderImage,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import type { Metrics } from '../../../ports/metrics.js';
import { afterAcceptance, beforeAcceptance, describeFailure, isTransportError } from '../failure-policy.js';
import { sleep as abortableSleep } from '../http-support.js';
import { steadyProgress, type ReportProgress } from '../progress-reports.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { seconds, startDeadline, type Deadline } from './deadline.js';
import { Semaphore } from './semaphore.js';

export interface ResilienceOptions {
  /** PROVIDER_TIMEOUT_MS: bounds a whole call from its start (attempts, waits, status checks), not each attempt. */
  timeoutMs: number;
  /** Retries of a create (or a synchronous generation) the provider provably did not act on; status checks of an accepted job are not counted. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxConcurrent: number;
  breakerThreshold: number;
  breakerCooldownMs: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** 0 <= random() < 1, for jitter. */
  random?: () => number;
  /** Where the breaker's state is reported. */
  metrics?: Metrics;
}

export const DEFAULT_RESILIENCE: Omit<ResilienceOptions, 'timeoutMs'> = {
  retries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxConcurrent: 4,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
};

/** `imagegate models --check` waits at most this long for one provider. */
const CHECK_TIMEOUT_MS = 15_000;

/** A job (or an output file) the call can resume: what is left are idempotent reads. */
const resumable = (journal: CallJournal): boolean => journal.job !== undefined || journal.output !== undefined;
/** A job the provider is known to have accepted (and so bills), or an image it made and named. */
const accepted = (journal: CallJournal): boolean => (journal.job !== undefined && journal.job.pending !== true) || journal.output !== undefined;

/** Read through a function: TypeScript would otherwise keep an earlier check's answer across an await. */
const callerGone = (call: Call): boolean => call.caller?.aborted === true;

interface Call {
  request: ProviderRequest;
  journal: CallJournal;
  caller?: AbortSignal;
  deadline: Deadline;
  signal: AbortSignal;
  /** Passed on as asked: a retry happens only before any event came (a stream cut mid-way is an unknown outcome). */
  partialImages?: PartialImages;
  /** One for the whole call, so progress never goes back when a retry or a resumed job reports from the start. */
  onProgress?: ReportProgress;
}

/**
 * Wraps any adapter with what every remote provider needs, without ever paying twice for one call:
 * - a create is sent again only when the provider provably did not act on it (no connection, 408, 429, 500, 502,
 *   503, or its own `x-should-retry: true`); a lost answer is ProviderOutcomeUnknown (see failure-policy.ts);
 * - a job it accepted is followed to its end: failed status checks and downloads are retried until the deadline;
 * - one deadline (PROVIDER_TIMEOUT_MS) bounds the call; past it an accepted job is cancelled (ProviderJobAbandoned);
 * - Retry-After is honoured up to the deadline, else passed on at once; backoff is exponential with full jitter;
 * - a cap on concurrent calls, and a breaker that counts only the provider's own failures (not 429s, not refusals).
 */
export function withResilience(provider: ImageProvider, options: ResilienceOptions): ImageProvider {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const slots = new Semaphore(options.maxConcurrent);
  const report = options.metrics === undefined ? undefined : { provider: provider.id, metrics: options.metrics };
  const breaker = new CircuitBreaker({ failureThreshold: options.breakerThreshold, cooldownMs: options.breakerCooldownMs, now, report });
  const within = `within ${seconds(options.timeoutMs)} s`;

  const circuitOpen = () =>
    new ProviderCircuitOpen(
      `${provider.id} is failing repeatedly; not calling it for another ${Math.ceil(breaker.retryInMs() / 1000)} s`,
      503,
      breaker.retryInMs(),
    );

  /**
   * A call that ends leaves nothing running at the provider. When it gives up on an accepted job (`abandons`), the
   * job is billed without an image, and the error says so; a job that ended on its own (refused, failed) keeps its error.
   */
  function leave(journal: CallJournal, why: string, otherwise: unknown, abandons = true): unknown {
    const job = journal.job;
    if (job !== undefined) provider.cancel?.(journal);
    if (!abandons || !accepted(journal)) return otherwise;
    const what = job === undefined ? 'its finished image' : `job ${job.id}`;
    return new ProviderJobAbandoned(`${provider.id} ${what} was abandoned (${why}); the provider bills it without an image`, 504);
  }

  /** The deadline passed: while a request was in flight, its outcome is unknown; between attempts, nothing was sent. */
  function timedOut(call: Call, inFlight: boolean, last: unknown): unknown {
    const unknown = new ProviderOutcomeUnknown(`${provider.id} did not answer ${within}; the request may have reached it`, true);
    const unsent = new ProviderUnavailable(`${provider.id} did not answer ${within}${last === undefined ? '' : ` (last: ${describeFailure(last)})`}`, 504);
    return leave(call.journal, `no result ${within}`, inFlight ? unknown : unsent);
  }

  /** The caller left: an accepted job is abandoned, a request in flight has an unknown outcome, else its reason stands. */
  function callerLeft(call: Call, inFlight: boolean): unknown {
    const reason: unknown = call.caller?.reason;
    const why = reason instanceof Error ? reason.message : String(reason);
    const unknown = new ProviderOutcomeUnknown(
      `${provider.id}: the caller gave up (${why}) with the request in flight; it may have reached the provider`,
      false,
    );
    return leave(call.journal, why, inFlight ? unknown : reason);
  }

  /** Out of retries or not retryable: an unreachable provider is down for the caller (503), not a bug (500). */
  function finalError(call: Call, error: unknown): unknown {
    const final = isTransportError(error) ? new ProviderUnavailable(`${provider.id} could not be reached: ${describeFailure(error)}`, 503) : error;
    // Only a provider we stopped waiting for leaves its job unfinished; a refusal or a failed job ended by itself.
    const givenUp = final instanceof ProviderUnavailable && !(final instanceof ProviderJobAbandoned);
    return leave(call.journal, final instanceof Error ? final.message : String(final), final, givenUp);
  }

  async function run(call: Call): Promise<ProviderImage> {
    let creates = 0;
    let waits = 0;
    let last: unknown;
    for (;;) {
      if (callerGone(call)) throw callerLeft(call, false);
      if (call.deadline.passed()) throw timedOut(call, false, last);
      // A job already accepted is followed whatever the breaker says: it is paid for.
      if (!resumable(call.journal) && !breaker.tryAcquire()) throw leave(call.journal, 'circuit open', circuitOpen());
      try {
        const image = await provider.generate(call.request, {
          signal: call.signal,
          journal: call.journal,
          ...(call.onProgress === undefined ? {} : { onProgress: call.onProgress }),
          ...(call.partialImages === undefined ? {} : { partialImages: call.partialImages }),
        });
        breaker.succeeded();
        return image;
      } catch (error) {
        last = error;
      }
      if (callerGone(call)) {
        breaker.released();
        throw callerLeft(call, true);
      }
      if (call.deadline.signal.aborted) {
        breaker.failed();
        throw timedOut(call, true, last);
      }
      const following = resumable(call.journal);
      const verdict = following ? afterAcceptance(last) : beforeAcceptance(provider.id, last);
      if (verdict.providerFault) breaker.failed();
      else breaker.released();
      if (verdict.kind === 'final') throw finalError(call, verdict.error);
      if (!following && creates >= options.retries) throw finalError(call, last);
      if (!following) creates += 1;
      const wait = verdict.retryAfterMs ?? Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** waits) * random();
      waits += 1;
      // Waiting past the deadline helps nobody: the caller gets the provider's Retry-After now.
      if (wait >= call.deadline.remainingMs()) throw finalError(call, last);
      try {
        await sleep(wait, call.signal);
      } catch (error) {
        if (callerGone(call)) throw callerLeft(call, false);
        if (call.deadline.signal.aborted) throw timedOut(call, false, last);
        throw error;
      }
    }
  }

  const wrapped: ImageProvider = {
    id: provider.id,
    async generate(request, callOptions) {
      const caller = callOptions?.signal;
      const release = await slots.acquire(caller, callOptions?.share);
      const deadline = startDeadline(options.timeoutMs, now, provider.id);
      const signal = caller === undefined ? deadline.signal : AbortSignal.any([caller, deadline.signal]);
      try {
        const partialImages = callOptions?.partialImages;
        const progress = callOptions?.onProgress === undefined ? {} : { onProgress: steadyProgress(callOptions.onProgress) };
        return await run({
          request,
          journal: callOptions?.journal ?? {},
          caller,
          deadline,
          signal,
          ...progress,
          ...(partialImages === undefined ? {} : { partialImages }),
        });
      } finally {
        deadline.clear();
        release();
      }
    },
    cancel: (journal) => provider.cancel?.(journal),
  };
  const check = provider.check?.bind(provider);
  if (check !== undefined) wrapped.check = (signal) => check(signal ?? AbortSignal.timeout(CHECK_TIMEOUT_MS));
  return wrapped;
}
