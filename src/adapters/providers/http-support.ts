import type { FailureKind, ProviderCheck, ProviderImage } from '../../ports/image-provider.js';
import { httpFailure, parseRetryAfter, ProviderAccountProblem, ProviderRefusal, ProviderUnavailable } from '../../ports/image-provider.js';
import { ProviderRetryAdvice } from './failure-policy.js';
import { sniffImageType } from './sniff-image-type.js';

/** A response body read once: the text, and the parsed JSON object when it is one (else an empty record). */
export interface ReadBody {
  text: string;
  json: Record<string, unknown>;
  isJson: boolean;
}

export async function readBody(response: Response): Promise<ReadBody> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    // Valid JSON that is not an object (`null`, a string) reads as an empty record, so the status still speaks.
    return { text, json: isRecord(parsed) ? parsed : {}, isJson: true };
  } catch {
    return { text, json: {}, isJson: false };
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringAt = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** At most `max` characters of a provider's message, so a huge HTML error page cannot flood a log line or an error body. */
export const clip = (text: string, max = 300): string => (text.length > max ? `${text.slice(0, max)}...` : text);

/** FastAPI's validation answer `{ detail: [{ loc, msg }] }` as `body.steps: msg; ...`, or undefined for any other body. */
export function fastApiValidation(json: Record<string, unknown>): string | undefined {
  if (!Array.isArray(json.detail)) return undefined;
  return json.detail
    .filter(isRecord)
    .map((item) => `${Array.isArray(item.loc) ? item.loc.join('.') : 'body'}: ${stringAt(item.msg) ?? 'invalid'}`)
    .join('; ');
}

/**
 * Throws the classified failure for a non-2xx answer whose detail is whatever `describe` finds in the body;
 * `classify` lets an adapter that knows its provider's error codes override the classification by status.
 */
export async function failOnHttpError(
  provider: string,
  response: Response,
  describe: (body: ReadBody) => string | undefined,
  classify: (status: number, body: ReadBody) => FailureKind | undefined = () => undefined,
): Promise<void> {
  if (response.ok) return;
  const body = await readBody(response);
  const detail = describe(body) ?? (body.isJson ? 'no error message' : `unexpected ${response.headers.get('Content-Type') ?? 'body'}`);
  throw answerFailure(provider, response, clip(detail), classify(response.status, body));
}

/**
 * The classified failure for a non-2xx answer, with its Retry-After. A provider that says whether to retry
 * (`x-should-retry: true|false`, OpenAI) is believed over the status, except that no retry fixes an account problem.
 */
export function answerFailure(provider: string, response: Response, detail: string, kind?: FailureKind): Error {
  const retryAfter = response.headers.get('Retry-After');
  const failure = httpFailure(provider, response.status, detail, retryAfter, kind);
  const advice = response.headers.get('x-should-retry')?.trim().toLowerCase();
  if ((advice !== 'true' && advice !== 'false') || failure instanceof ProviderAccountProblem) return failure;
  if (advice === 'false' && failure instanceof ProviderRefusal) return failure;
  return new ProviderRetryAdvice(failure.message, response.status, parseRetryAfter(retryAfter), advice === 'true');
}

/**
 * A provider's cheapest read-only request, for `imagegate models --check`: ok on 2xx, otherwise what came back
 * (classified as a generation would be, so a bad key reads as one). Never throws.
 */
export async function checkRequest(
  provider: string,
  fetchImpl: typeof fetch,
  url: string,
  init: { headers?: Record<string, string>; signal?: AbortSignal },
  describe: (body: ReadBody) => string | undefined = () => undefined,
): Promise<ProviderCheck> {
  const endpoint = `GET ${new URL(url).pathname}`;
  try {
    const response = await fetchImpl(url, { headers: init.headers, signal: init.signal });
    if (response.ok) {
      await response.body?.cancel();
      return { ok: true, endpoint, detail: `answered ${response.status}` };
    }
    const body = await readBody(response);
    const detail = describe(body) ?? (body.isJson ? 'no error message' : `unexpected ${response.headers.get('Content-Type') ?? 'body'}`);
    return { ok: false, endpoint, detail: httpFailure(provider, response.status, clip(detail)).message };
  } catch (error) {
    return { ok: false, endpoint, detail: `${provider} could not be reached: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Whether `url` is on the same origin as `base`: credentials go only there, never to a host a provider merely named. */
export const sameOrigin = (url: string, base: string): boolean => URL.canParse(url) && URL.canParse(base) && new URL(url).origin === new URL(base).origin;

/** Image bytes from base64, with or without a `data:image/...;base64,` prefix. */
export function base64Image(value: string): ProviderImage {
  const comma = value.startsWith('data:') ? value.indexOf(',') : -1;
  const bytes = new Uint8Array(Buffer.from(comma >= 0 ? value.slice(comma + 1) : value, 'base64'));
  return { bytes, contentType: sniffImageType(bytes) };
}

/**
 * Fetches a provider's output file. Credentials go only to the provider's own origin: output files usually
 * live on a CDN that needs none, and a bearer token must never travel to a host the provider merely named.
 */
export async function downloadImage(
  provider: string,
  fetchImpl: typeof fetch,
  url: string,
  options: { signal?: AbortSignal; origin: string; headers: Record<string, string> },
): Promise<ProviderImage> {
  if (url.startsWith('data:')) return base64Image(url);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Error(`${provider} named an output file that is not a URL: ${clip(url, 100)}`);
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw new Error(`${provider} named an output file with an unsupported scheme: ${target.protocol}`);
  const response = await fetchImpl(target, {
    headers: sameOrigin(target.href, options.origin) ? options.headers : {},
    signal: options.signal,
  });
  if (!response.ok) {
    await response.body?.cancel();
    if (response.status === 408 || response.status === 429 || response.status >= 500) {
      throw new ProviderUnavailable(
        `${provider} output download answered ${response.status}`,
        response.status,
        parseRetryAfter(response.headers.get('Retry-After')),
      );
    }
    throw new Error(`${provider} output download answered ${response.status}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const declared = response.headers.get('Content-Type') ?? '';
  return { bytes, contentType: declared.startsWith('image/') ? declared : sniffImageType(bytes) };
}

/**
 * Sends a request nobody waits for, to cancel provider work a caller gave up on (so it stops costing money).
 * Unawaited, bounded to 10 s, failures ignored: the caller has already gone.
 */
export function fireAndForget(fetchImpl: typeof fetch, url: string, init: RequestInit): void {
  fetchImpl(url, { ...init, signal: AbortSignal.timeout(10_000) })
    .then((answer) => answer.body?.cancel())
    .catch(() => undefined);
}

/** Waits `ms`, or rejects as soon as `signal` aborts (so a timeout stops a polling loop mid-wait). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const abortReason = (signal: AbortSignal | undefined): Error => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'));

/**
 * The supported aspect ratio (`W:H`) closest to width:height, compared on a log scale so that 2:1 and 1:2
 * are equally far from 1:1. For providers that take a ratio rather than a pixel size.
 */
export function nearestAspectRatio(width: number, height: number, ratios: readonly string[]): string {
  const wanted = Math.log(width / height);
  let best = ratios[0] ?? '1:1';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const ratio of ratios) {
    const [w, h] = ratio.split(':').map(Number);
    if (w === undefined || h === undefined || !(w > 0) || !(h > 0)) continue;
    const distance = Math.abs(Math.log(w / h) - wanted);
    if (distance < bestDistance) {
      best = ratio;
      bestDistance = distance;
    }
  }
  return best;
}
