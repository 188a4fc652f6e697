import type { ServerResponse } from 'node:http';
import { readImageHeader } from '../../../domain/inputs/image-header.js';
import { isRecord } from '../http-support.js';
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest, type Responder } from '../../../test-support/loopback-server.js';
import { MIME, sampleImages, type FakeOptions, type ImageFormat, type SampleImages } from '../../../test-support/fake-images.js';

/*
 * The Gemini API on loopback, as googleapis/js-genai (src/types.ts, src/converters/_models_converters.ts at 6e9b35c,
 * 2026-08-21) and Google's image-generation guide (https://ai.google.dev/gemini-api/docs/image-generation) describe it:
 * - `POST /v1beta/models/{model}:generateContent` with the key in `x-goog-api-key`, a user content of a text part and
 *   `inlineData` image parts, and `generationConfig { responseModalities, imageConfig { aspectRatio, imageSize } }`;
 *   answered with GenerateContentResponse: `candidates[0].content.parts[].inlineData { mimeType, data }` (a Gemini 3
 *   model's interim "thought" image first, marked `thought: true`), `finishReason: STOP`, `usageMetadata` with
 *   token counts by modality, `modelVersion`, `responseId`;
 * - `GET /v1beta/models/{model}`, the Model resource (`name: "models/{model}"`, `supportedGenerationMethods`);
 * - errors in Google's envelope `{ error: { code, message, status, details } }`: a missing key is 400 INVALID_ARGUMENT
 *   with a google.rpc.ErrorInfo `API_KEY_INVALID` (the envelope Google's troubleshooting page quotes), an unknown model
 *   404 NOT_FOUND, a request the API cannot take 400 INVALID_ARGUMENT;
 * - and, for tests, the answers a safety block gives: `promptFeedback.blockReason` with no candidate, a candidate whose
 *   `finishReason` is IMAGE_SAFETY (or another), a candidate with words and no image.
 */

/** Google's limit for the Gemini 3 image models' reference images. */
const MAX_INPUT_IMAGES = 14;
const RATIOS = new Set(['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9', '1:4', '4:1', '1:8', '8:1']);
const SIZES = new Set(['1K', '2K', '4K']);
/** Tokens the fake bills: the prompt's text, each input image, the output image (Google's 1K count). */
export const FAKE_TOKENS = { text: 9, perInputImage: 560, image: 1120 } as const;

const status = (code: number): string =>
  ({ 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' })[code] ?? 'UNKNOWN';

/** Google's error envelope, with optional `details` (ErrorInfo, RetryInfo, QuotaFailure...). */
export function sendGoogleError(response: ServerResponse, code: number, message: string, details: unknown[] = [], headers: Record<string, string> = {}): void {
  sendJson(response, code, { error: { code, message, status: status(code), ...(details.length > 0 ? { details } : {}) } }, headers);
}

/** A responder answering every request with that error. */
export const googleError =
  (code: number, message: string, details: unknown[] = [], headers: Record<string, string> = {}): Responder =>
  (_request, response) =>
    sendGoogleError(response, code, message, details, headers);

const usage = (inputImages: number, outputImages: number) => ({
  promptTokenCount: FAKE_TOKENS.text + inputImages * FAKE_TOKENS.perInputImage,
  candidatesTokenCount: outputImages * FAKE_TOKENS.image,
  totalTokenCount: FAKE_TOKENS.text + inputImages * FAKE_TOKENS.perInputImage + outputImages * FAKE_TOKENS.image,
  promptTokensDetails: [
    { modality: 'TEXT', tokenCount: FAKE_TOKENS.text },
    ...(inputImages > 0 ? [{ modality: 'IMAGE', tokenCount: inputImages * FAKE_TOKENS.perInputImage }] : []),
  ],
  ...(outputImages > 0 ? { candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: outputImages * FAKE_TOKENS.image }] } : {}),
});

/** A 200 GenerateContentResponse whose first candidate holds these parts. */
export const sendCandidate = (response: ServerResponse, model: string, parts: unknown[], finishReason: string, extra: Record<string, unknown> = {}): void =>
  sendJson(response, 200, {
    candidates: [{ content: { role: 'model', parts }, finishReason, index: 0, ...extra }],
    usageMetadata: usage(0, parts.some((part) => isRecord(part) && part.thought !== true && 'inlineData' in part) ? 1 : 0),
    modelVersion: model,
    responseId: 'fake-response-1',
  });

/** The prompt itself blocked: `promptFeedback.blockReason` and no candidate; the prompt's tokens billed. */
export const promptBlocked =
  (blockReason: string): Responder =>
  (_request, response) =>
    sendJson(response, 200, { promptFeedback: { blockReason }, usageMetadata: usage(0, 0), modelVersion: 'fake', responseId: 'fake-blocked' });

/** A candidate stopped with `finishReason` and no image (IMAGE_SAFETY, PROHIBITED_CONTENT, NO_IMAGE...). */
export const candidateStopped =
  (finishReason: string, finishMessage?: string): Responder =>
  (_request, response) =>
    sendCandidate(response, 'fake', [], finishReason, finishMessage === undefined ? {} : { finishMessage });

/** The model answered in words and drew nothing. */
export const wordsOnly =
  (text: string): Responder =>
  (_request, response) =>
    sendCandidate(response, 'fake', [{ text }], 'STOP');

/** Why a generateContent body cannot be taken, in Google's words; undefined when it can. */
function problemOf(body: unknown): string | undefined {
  const contents = isRecord(body) && Array.isArray(body.contents) ? body.contents : [];
  const [content] = contents;
  const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
  if (parts.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  if (!parts.some((part) => typeof part.text === 'string' && part.text !== '')) return 'Unable to submit request because it has an empty text parameter.';
  const images = parts.filter((part) => isRecord(part.inlineData));
  if (images.length > MAX_INPUT_IMAGES) return `Too many images in the request: at most ${MAX_INPUT_IMAGES}.`;
  for (const part of images) {
    const data = isRecord(part.inlineData) ? part.inlineData : {};
    const header = readImageHeader(Buffer.from(String(data.data ?? ''), 'base64'));
    if (header === undefined || header.contentType !== data.mimeType)
      return 'Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting';
  }
  const config = isRecord(body) && isRecord(body.generationConfig) ? body.generationConfig : {};
  const image = isRecord(config.imageConfig) ? config.imageConfig : {};
  if (image.aspectRatio !== undefined && !RATIOS.has(String(image.aspectRatio))) return `Unsupported aspect ratio: ${String(image.aspectRatio)}`;
  if (image.imageSize !== undefined && !SIZES.has(String(image.imageSize))) return `Unsupported image size: ${String(image.imageSize)}`;
  return undefined;
}

const inputImagesOf = (body: unknown): number => {
  const [content] = isRecord(body) && Array.isArray(body.contents) ? body.contents : [];
  return isRecord(content) && Array.isArray(content.parts) ? content.parts.filter((part) => isRecord(part) && isRecord(part.inlineData)).length : 0;
};

/**
 * The Gemini API's documented success: every generateContent answered with `answer`'s image (the format asked of the
 * fake, PNG by default), after a thought image for a Gemini 3 model; every request pushed to `received`.
 */
export function googleSuccess(images: SampleImages, answer: ImageFormat = 'png', received: RecordedRequest[] = []): Responder {
  return (request, response) => {
    received.push(request);
    const key = request.headers['x-goog-api-key'];
    if (typeof key !== 'string' || key === '') {
      return sendGoogleError(response, 400, 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]);
    }
    const read = /^\/v1beta\/models\/([^/:]+)$/.exec(request.path)?.[1];
    if (request.method === 'GET' && read !== undefined) {
      return sendJson(response, 200, {
        name: `models/${read}`,
        version: '2.1',
        displayName: read,
        inputTokenLimit: 65_536,
        outputTokenLimit: 32_768,
        supportedGenerationMethods: ['generateContent', 'countTokens', 'batchGenerateContent'],
      });
    }
    const model = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(request.path)?.[1];
    if (request.method !== 'POST' || model === undefined) return sendGoogleError(response, 404, `Method not found: ${request.method} ${request.path}`);
    const problem = problemOf(request.body);
    if (problem !== undefined) return sendGoogleError(response, 400, problem);
    const thought =
      model.startsWith('gemini-3') || model.startsWith('gemini-nano')
        ? [{ inlineData: { mimeType: MIME.jpeg, data: images.jpeg.toString('base64') }, thought: true }]
        : [];
    const final = { inlineData: { mimeType: MIME[answer], data: images[answer].toString('base64') }, thoughtSignature: 'c2lnbmF0dXJl' };
    sendJson(response, 200, {
      candidates: [{ content: { role: 'model', parts: [...thought, final] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: usage(inputImagesOf(request.body), 1),
      modelVersion: model,
      responseId: 'fake-response-1',
    });
  };
}

/** The Gemini API on loopback, answering every generation with a PNG (or the format given). */
export async function startGoogleFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const server = await startLoopbackServer(googleSuccess(await sampleImages(), options.answer));
  return { baseUrl: server.origin, server, close: () => server.close() };
}
