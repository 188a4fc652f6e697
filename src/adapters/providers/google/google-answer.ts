import type { FailureKind, ProviderImage } from '../../../ports/image-provider.js';
import { httpFailure, ProviderRefusal } from '../../../ports/image-provider.js';
import { clip, isRecord, readBody, stringAt, type ReadBody } from '../http-support.js';

/*
 * What the Gemini API answers, as googleapis/js-genai types it (src/types.ts at 6e9b35c, 2026-08-21):
 * GenerateContentResponse { candidates[]: { content: { parts[] }, finishReason, finishMessage }, promptFeedback:
 * { blockReason }, usageMetadata }, a Part carrying an image as `inlineData { mimeType, data }` and marked
 * `thought: true` when it is one of the interim images a Gemini 3 model draws while it thinks. Errors are Google's
 * JSON envelope `{ error: { code, message, status, details[] } }`, whose details may hold a google.rpc.ErrorInfo
 * (`reason`, e.g. API_KEY_INVALID) and a google.rpc.RetryInfo (`retryDelay`, e.g. "37s").
 */

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const firstCandidate = (json: Record<string, unknown>): Record<string, unknown> | undefined => {
  const [candidate] = list(json.candidates);
  return isRecord(candidate) ? candidate : undefined;
};
const partsOf = (candidate: Record<string, unknown> | undefined): Record<string, unknown>[] =>
  list(isRecord(candidate?.content) ? candidate.content.parts : undefined).filter(isRecord);

/**
 * The `inlineData` of the answer's image: the first image part of the first candidate that is not a thought (the
 * interim images come before it). For readJsonImage, which decodes its `data` as the body streams in.
 */
export function finalImageData(json: Record<string, unknown>): unknown {
  return partsOf(firstCandidate(json)).find((part) => part.thought !== true && isRecord(part.inlineData))?.inlineData;
}

/** Finish reasons that mean Google's filters stopped the image (FinishReason in js-genai's types). */
const FILTERED = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_RECITATION']);

/** What Google says it billed for an answer it made (a 200 is billed by its tokens, a refused one too). */
function billed(json: Record<string, unknown>): string {
  const usage = isRecord(json.usageMetadata) ? json.usageMetadata : {};
  const total = usage.totalTokenCount;
  return typeof total === 'number' && total > 0 ? ` (Google bills this answer's ${total.toLocaleString('en-US')} tokens)` : '';
}

/**
 * The image of a 200 answer, or why there is none. A prompt Google blocked, an image its filters stopped, or an
 * answer without an image (the model replied in words, or made none) are refusals: the caller's request, never retried.
 * An answer with no candidate at all makes no sense and is a plain failure.
 */
export function imageOf(json: Record<string, unknown>, image: ProviderImage | undefined): ProviderImage {
  const feedback = isRecord(json.promptFeedback) ? json.promptFeedback : {};
  const blocked = stringAt(feedback.blockReason);
  if (blocked !== undefined) {
    const why = stringAt(feedback.blockReasonMessage);
    throw new ProviderRefusal(`Google blocked the prompt (${blocked}${why === undefined ? '' : `: ${clip(why)}`})${billed(json)}`);
  }
  const candidate = firstCandidate(json);
  if (candidate === undefined) throw new Error('Google answered 200 with no candidate and no block reason');
  const finish = stringAt(candidate.finishReason) ?? 'no finish reason';
  const message = stringAt(candidate.finishMessage);
  if (FILTERED.has(finish)) {
    throw new ProviderRefusal(`Google stopped the image (finishReason ${finish}${message === undefined ? '' : `: ${clip(message)}`})${billed(json)}`);
  }
  if (image !== undefined) return image;
  const words = partsOf(candidate)
    .filter((part) => part.thought !== true)
    .map((part) => stringAt(part.text))
    .filter((text) => text !== undefined)
    .join(' ');
  const said = words === '' ? (message ?? '') : words;
  throw new ProviderRefusal(`Google answered without an image (finishReason ${finish})${said === '' ? '' : `: ${clip(said)}`}${billed(json)}`);
}

interface GoogleError {
  message?: string;
  status?: string;
  reason?: string;
  /** RetryInfo's `retryDelay` in seconds, as a Retry-After value. */
  retrySeconds?: string;
}

function errorOf({ json }: ReadBody): GoogleError {
  const error = isRecord(json.error) ? json.error : {};
  const details = list(error.details).filter(isRecord);
  const reason = details.map((detail) => stringAt(detail.reason)).find((value) => value !== undefined);
  const delay = details.map((detail) => stringAt(detail.retryDelay)).find((value) => value !== undefined);
  // A google.protobuf.Duration in JSON: seconds with an `s`, fractions allowed ("37s", "0.5s").
  const seconds = delay === undefined ? undefined : /^(\d+(?:\.\d+)?)s$/.exec(delay)?.[1];
  return { message: stringAt(error.message), status: stringAt(error.status), reason, retrySeconds: seconds };
}

/** Google's message with its status and reason: "API key not valid. Please pass a valid API key. (INVALID_ARGUMENT, API_KEY_INVALID)". */
export function describeError(body: ReadBody): string | undefined {
  const { message, status, reason } = errorOf(body);
  const codes = [status, reason].filter((code) => code !== undefined).join(', ');
  if (message === undefined) return codes === '' ? undefined : codes;
  return codes === '' ? message : `${message} (${codes})`;
}

/** Reasons and statuses that are the operator's to fix, whatever the HTTP status (Google answers a bad key with 400). */
const ACCOUNT_REASONS = new Set(['API_KEY_INVALID', 'API_KEY_SERVICE_BLOCKED', 'API_KEY_HTTP_REFERRER_BLOCKED', 'SERVICE_DISABLED', 'BILLING_DISABLED']);
const ACCOUNT_STATUSES = new Set(['PERMISSION_DENIED', 'UNAUTHENTICATED', 'FAILED_PRECONDITION']);

function kindOf(error: GoogleError): FailureKind | undefined {
  if (error.reason !== undefined && ACCOUNT_REASONS.has(error.reason)) return 'account';
  if (error.status !== undefined && ACCOUNT_STATUSES.has(error.status)) return 'account';
  return undefined;
}

/**
 * The classified failure of a non-2xx answer: a bad key, missing permission or billing is the operator's problem; a
 * 429 (RESOURCE_EXHAUSTED) or a 5xx may be retried, after the Retry-After header or else RetryInfo's delay; any other
 * 4xx (INVALID_ARGUMENT) is a refusal of this request. Google does not bill answers that fail with 4xx or 5xx.
 */
export async function failureOf(response: Response): Promise<Error> {
  const body = await readBody(response);
  const error = errorOf(body);
  const detail = describeError(body) ?? (body.isJson ? 'no error message' : `unexpected ${response.headers.get('Content-Type') ?? 'body'}`);
  return httpFailure('Google', response.status, clip(detail), response.headers.get('Retry-After') ?? error.retrySeconds ?? null, kindOf(error));
}
