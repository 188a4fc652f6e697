import { ProviderCircuitOpen, ProviderJobAbandoned, ProviderOutcomeUnknown, ProviderUnavailable } from '../../ports/image-provider.js';

/**
 * An answer whose provider said itself whether to retry it (OpenAI's `x-should-retry`): its word wins over what
 * the status alone would mean, as in OpenAI's own SDKs.
 */
export class ProviderRetryAdvice extends ProviderUnavailable {
  constructor(
    message: string,
    status: number,
    retryAfterMs: number | undefined,
    readonly shouldRetry: boolean,
  ) {
    super(message, status, retryAfterMs);
  }
}

/**
 * What to do after one attempt failed. `providerFault` says whether the failure speaks about the provider's health
 * (5xx, 408, a network error, a timeout), the only failures the circuit breaker counts.
 */
export type Verdict = { kind: 'retry'; retryAfterMs?: number; providerFault: boolean } | { kind: 'final'; error: unknown; providerFault: boolean };

/**
 * Connection errors that happen before a byte of the request is written (undici's `fetch failed` TypeError names
 * them in `cause.code`): the provider cannot have seen the request, so sending it again cannot pay twice.
 */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** Statuses that answer a create without having made anything: the request was refused, so it may be sent again. */
const REFUSED_UNMADE = new Set([408, 429, 500, 502, 503]);
/** A gateway's timeouts (504, Cloudflare's 524): the request went on to the provider, which may have made the image. */
const GATEWAY_TIMEOUT = new Set([504, 524]);

const codeOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'string' ? value.code : undefined;

/** fetch's own failures (refused, reset, a body cut short) as opposed to a bug that happens to be a TypeError. */
export const isTransportError = (error: unknown): error is TypeError =>
  error instanceof TypeError && (/fetch failed|network|terminated/i.test(error.message) || codeOf(error.cause) !== undefined);

/** Whether a transport error happened before the request left (every address of the host refused it, or DNS failed). */
export function neverSent(error: unknown): boolean {
  if (!isTransportError(error)) return false;
  const cause = error.cause;
  if (cause instanceof AggregateError && cause.errors.length > 0) return cause.errors.every((each) => NEVER_SENT.has(codeOf(each) ?? ''));
  return NEVER_SENT.has(codeOf(cause) ?? '');
}

const FINAL_UNAVAILABLE = (error: unknown): boolean => error instanceof ProviderJobAbandoned || error instanceof ProviderCircuitOpen;

const faultOf = (status: number): boolean => status === 408 || status >= 500;

/**
 * A failure while no job is known to exist: the create (or a synchronous generation) may be sent again only when
 * the provider provably did not act on it. A lost answer becomes ProviderOutcomeUnknown, never a second request.
 */
export function beforeAcceptance(provider: string, error: unknown): Verdict {
  if (error instanceof ProviderOutcomeUnknown) return { kind: 'final', error, providerFault: true };
  if (FINAL_UNAVAILABLE(error)) return { kind: 'final', error, providerFault: false };
  if (error instanceof ProviderUnavailable) {
    const providerFault = faultOf(error.status);
    // The provider's own word on its answer wins: it knows whether it made something.
    const advice = error instanceof ProviderRetryAdvice ? error.shouldRetry : undefined;
    if (advice === true) return { kind: 'retry', retryAfterMs: error.retryAfterMs, providerFault };
    if (GATEWAY_TIMEOUT.has(error.status))
      return { kind: 'final', error: new ProviderOutcomeUnknown(`${error.message} (the request may have reached ${provider})`, true), providerFault };
    if (advice === undefined && REFUSED_UNMADE.has(error.status)) return { kind: 'retry', retryAfterMs: error.retryAfterMs, providerFault };
    return { kind: 'final', error, providerFault };
  }
  if (neverSent(error)) return { kind: 'retry', providerFault: true };
  if (isTransportError(error)) {
    return {
      kind: 'final',
      error: new ProviderOutcomeUnknown(`${provider} lost the answer after the request was sent (${describeFailure(error)}); not sent again`, false),
      providerFault: true,
    };
  }
  // A refusal, an account problem or an answer that makes no sense: retrying changes nothing.
  return { kind: 'final', error, providerFault: false };
}

/**
 * A failure once a job was accepted (or its output named): what remains are status checks and downloads,
 * idempotent reads that are retried whatever went wrong in transit, until the call's deadline.
 */
export function afterAcceptance(error: unknown): Verdict {
  if (error instanceof ProviderOutcomeUnknown) return { kind: 'final', error, providerFault: true };
  if (FINAL_UNAVAILABLE(error)) return { kind: 'final', error, providerFault: false };
  if (error instanceof ProviderRetryAdvice && !error.shouldRetry) return { kind: 'final', error, providerFault: faultOf(error.status) };
  if (error instanceof ProviderUnavailable) return { kind: 'retry', retryAfterMs: error.retryAfterMs, providerFault: faultOf(error.status) };
  if (isTransportError(error)) return { kind: 'retry', providerFault: true };
  return { kind: 'final', error, providerFault: false };
}

/** A transport error with what undici says under it ("fetch failed: other side closed (UND_ERR_SOCKET)"). */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = codeOf(cause);
  return cause === undefined ? error.message : `${error.message}: ${cause.message}${code === undefined || cause.message.includes(code) ? '' : ` (${code})`}`;
}
