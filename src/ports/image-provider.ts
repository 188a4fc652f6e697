/**
 * An image given to a model (a reference, the picture to edit, or a mask), already checked: its type is one of
 * PNG, JPEG or WebP as read from the bytes, and its size is within the service's pixel limits.
 */
export interface InputImage {
  bytes: Uint8Array;
  /** `image/png`, `image/jpeg` or `image/webp`, from the bytes themselves (never the uploader's word). */
  contentType: string;
  width: number;
  height: number;
  /** A file name for APIs that take multipart files, with the real extension, e.g. `image-0.png` or `mask.png`. */
  filename: string;
}

/** OpenAI's quality levels; `auto` lets the provider pick. */
export type ImageQuality = 'low' | 'medium' | 'high' | 'auto';
export type ImageBackground = 'transparent' | 'opaque' | 'auto';

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
  /**
   * Input images in the caller's order; the first is the one edited (image-to-image, inpainting), the rest are
   * references. Absent for text-to-image. Never more than the model's `inputs.max_images`.
   */
  images?: readonly InputImage[];
  /**
   * OpenAI's mask semantics: a fully transparent pixel marks the area to change, an opaque one is kept. Same size
   * as `images[0]`; only for models whose `inputs.mask` is true. Adapters whose API wants the opposite (white =
   * change) convert it.
   */
  mask?: InputImage;
  /** 0..1, how far the result may move away from `images[0]` (1 = ignore it); only for models with `inputs.strength`. */
  strength?: number;
  /** Only for models that list quality levels (`outputs.quality`). */
  quality?: ImageQuality;
  /** Only `transparent` needs the model (`outputs.transparent_background`); the service keeps the alpha channel. */
  background?: ImageBackground;
  /** OpenAI's `input_fidelity` for edits (gpt-image models). */
  inputFidelity?: 'low' | 'high';
  /** OpenAI's `moderation` (GPT image models); providers without the setting leave it aside. */
  moderation?: 'auto' | 'low';
}

/** Tokens a token-billed provider (OpenAI's GPT image models) reports it billed for one image. */
export interface TokenUsage {
  inputTextTokens: number;
  inputImageTokens: number;
  outputImageTokens: number;
  outputTextTokens: number;
}

export interface ProviderImage {
  bytes: Uint8Array;
  /** MIME type as the provider answered it; the domain normalises everything to PNG. */
  contentType: string;
  /** The seed the provider says it used, when it says (Stability picks one for seed 0); the record keeps this one. */
  seed?: number;
  /** What the provider billed, when it reports it; the recorded cost then uses it rather than an estimate. */
  usage?: TokenUsage;
}

/** A job a provider accepted (and may bill for): enough to find it again, and its own URLs when it named them. */
export interface AcceptedJob {
  id: string;
  urls?: Readonly<Record<string, string>>;
  /** Sent, but not yet known to be accepted (ComfyUI: the id is ours, chosen before submitting). */
  pending?: boolean;
}

/**
 * What one call has already done at the provider, kept across the retries of that call: a retry resumes the
 * accepted job (polls it, fetches its result again) instead of creating and paying for a second one.
 */
export interface CallJournal {
  job?: AcceptedJob;
  /** The finished job's output file, so a failed download is retried as a download. */
  output?: { url: string; seed?: number };
}

export interface ProviderCallOptions {
  /** Aborts the call (timeout or caller gone); adapters pass it to every fetch they make. */
  signal?: AbortSignal;
  /** Shared by every attempt of one call; see CallJournal. */
  journal?: CallJournal;
  /**
   * Partial images the caller would like while the model draws (OpenAI's `partial_images`, 1..3). Providers that
   * cannot stream them leave it aside and answer the final image alone; fewer than `count` may come (OpenAI's
   * contract says so too).
   */
  partialImages?: PartialImages;
  /**
   * Whose call it is (an API key, or a user without one). Calls waiting for one of the provider's slots take turns
   * between shares, so one key's backlog cannot hold back another key's call; absent, the call waits with the others.
   */
  share?: string;
  /**
   * How far the call got, as the provider reports it while it works (ComfyUI's sampler steps, a Replicate or fal
   * job's queue place and logged steps, the offline model's drawing stages); providers that report nothing never
   * call it. Called in order, before the call resolves; it must not throw (a listener's failure is not the provider's).
   */
  onProgress?: (progress: ProviderProgress) => void;
}

/** One report of how far a provider call got. */
export interface ProviderProgress {
  /**
   * 0..1 of the whole call, never lower than an earlier report's of the same call. Absent when the provider says
   * only where the job is (queued, booting), not how far.
   */
  fraction?: number;
  /** What the provider is doing, in a few words: `step 12/30`, `in queue, 3 ahead`. */
  message?: string;
}

/** A partial image as the provider streamed it: `index` counts from 0, `b64_json` is the image in base64. */
export interface PartialImage {
  index: number;
  b64_json: string;
}

export interface PartialImages {
  count: number;
  /** Called as each partial arrives, before the call resolves; it must not throw (a listener's failure is not the provider's). */
  onPartial: (image: PartialImage) => void;
}

/**
 * A refusal that retrying cannot fix and the caller can act on: a content filter, a parameter the provider
 * rejects. Never retried, never counted against the provider's health.
 */
export class ProviderRefusal extends Error {
  override readonly name = 'ProviderRefusal';
}

/**
 * A failure worth retrying: 408, 429, 5xx or an unreachable provider. `retryAfterMs` carries the provider's
 * Retry-After when it sent one.
 */
export class ProviderUnavailable extends Error {
  override readonly name: string = 'ProviderUnavailable';

  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * The request may have reached the provider, but its answer was lost: the connection reset, or the deadline passed,
 * after the request was sent. The provider may have made (and billed) an image nobody will see. Never retried
 * (a second request could be paid twice); the ledger records the call as uncertain at its estimated cost.
 */
export class ProviderOutcomeUnknown extends Error {
  override readonly name = 'ProviderOutcomeUnknown';

  constructor(
    message: string,
    /** True when the deadline passed (answered 504), false when the connection was lost (502). */
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/**
 * The provider accepted a job that imagegate then gave up on (the deadline passed while it ran, or it was
 * cancelled): providers bill such jobs (Replicate bills a cancelled prediction), so the ledger records it as
 * charged without an image.
 */
export class ProviderJobAbandoned extends ProviderUnavailable {
  override readonly name = 'ProviderJobAbandoned';
}

/** The breaker is open: the provider failed repeatedly and is not called until `retryAfterMs` has passed. */
export class ProviderCircuitOpen extends ProviderUnavailable {
  override readonly name = 'ProviderCircuitOpen';
}

/**
 * The operator's problem, not the caller's: out of credit, wrong or missing credentials, a model or route the
 * provider does not know. Retrying cannot help. The message is for the operator's log, never for the caller.
 */
export class ProviderAccountProblem extends Error {
  override readonly name = 'ProviderAccountProblem';

  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The answer of a provider's cheapest read-only endpoint (model list, account), for `imagegate models --check`. */
export interface ProviderCheck {
  ok: boolean;
  /** The request made, e.g. `GET /v1/account`. */
  endpoint: string;
  /** What came back, in words (never a key). */
  detail: string;
}

export interface ImageProvider {
  /** Provider id as used in the catalogue, for example `local` or `workers-ai`. */
  readonly id: string;
  generate(request: ProviderRequest, options?: ProviderCallOptions): Promise<ProviderImage>;
  /** Stops an accepted job nobody will wait for (so it stops costing); fire and forget. */
  cancel?(journal: CallJournal): void;
  /** Verifies the credentials and address with a read-only call, generating nothing. */
  check?(signal?: AbortSignal): Promise<ProviderCheck>;
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** How an adapter that knows its provider's error codes overrides the classification by status. */
export type FailureKind = 'refusal' | 'unavailable' | 'account';

/**
 * Maps an HTTP failure to the error kind the resilience layer and the domain understand:
 * - 408, 429 and 5xx may be retried (the provider is busy or down);
 * - 401, 402, 403 and 404 are the operator's problem (credentials, credit, a model or route the provider does
 *   not know), which neither the caller nor a retry can fix;
 * - any other 4xx is a refusal of this request.
 * `kind` wins when the adapter recognised a provider-specific code (OpenAI `insufficient_quota` is a 429).
 */
export function httpFailure(provider: string, status: number, detail: string, retryAfter: string | null = null, kind?: FailureKind): Error {
  const message = `${provider} answered ${status}${detail === '' ? '' : `: ${detail}`}`;
  const classified = kind ?? kindOfStatus(status);
  if (classified === 'unavailable') return new ProviderUnavailable(message, status, parseRetryAfter(retryAfter));
  if (classified === 'account')
    return new ProviderAccountProblem(`${message} (${ACCOUNT_HINT[status] ?? "check the provider's account and settings"})`, status);
  return new ProviderRefusal(message);
}

const kindOfStatus = (status: number): FailureKind =>
  status === 408 || status === 429 || status >= 500
    ? 'unavailable'
    : status === 401 || status === 402 || status === 403 || status === 404
      ? 'account'
      : 'refusal';

const ACCOUNT_HINT: Readonly<Record<number, string>> = {
  401: "check the provider's API key",
  402: "the provider's account is out of credit",
  403: "check the provider's API key and its permissions",
  404: 'the provider knows no such model or route: check the catalogue and the *_BASE_URL setting',
};
