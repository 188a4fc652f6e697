/** What a caller asks a provider for, after the domain has merged template, defaults and request. */
export interface ProviderRequest {
  /** The provider's own model name (the catalogue maps public ids to it). */
  providerModel: string;
  prompt: string;
  negativePrompt?: string;
  width: number;
  height: number;
  seed: number;
  steps?: number;
  guidance?: number;
}

export interface ProviderImage {
  bytes: Uint8Array;
  /** MIME type as the provider answered it; the domain normalises everything to PNG. */
  contentType: string;
}

export interface ProviderCallOptions {
  /** Aborts the call (timeout or caller gone); adapters pass it to every fetch they make. */
  signal?: AbortSignal;
}

/**
 * A refusal that retrying cannot fix: a 4xx other than 429, a content filter, a bad parameter.
 * Never retried, never counted against the provider's health.
 */
export class ProviderRefusal extends Error {
  override readonly name = 'ProviderRefusal';
}

/**
 * A failure worth retrying: 429 or 5xx from the provider. `retryAfterMs` carries the provider's
 * Retry-After when it sent one.
 */
export class ProviderUnavailable extends Error {
  override readonly name = 'ProviderUnavailable';

  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface ImageProvider {
  /** Provider id as used in the catalogue, for example `local` or `workers-ai`. */
  readonly id: string;
  generate(request: ProviderRequest, options?: ProviderCallOptions): Promise<ProviderImage>;
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Maps an HTTP failure to the error kind the resilience layer understands: 429/5xx may be retried;
 * 401/403 mean the operator's credentials are wrong (a failure of the service, not of the request);
 * any other 4xx is a refusal of this request.
 */
export function httpFailure(provider: string, status: number, detail: string, retryAfter: string | null = null): Error {
  const message = `${provider} answered ${status}${detail === '' ? '' : `: ${detail}`}`;
  if (status === 429 || status >= 500) return new ProviderUnavailable(message, status, parseRetryAfter(retryAfter));
  if (status === 401 || status === 403) return new Error(`${message} (check the provider's API key)`);
  return new ProviderRefusal(message);
}
