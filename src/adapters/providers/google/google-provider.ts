import type { ImageProvider } from '../../../ports/image-provider.js';
import { checkRequest } from '../http-support.js';
import { readJsonImage } from '../json-image-reader.js';
import { describeError, failureOf, finalImageData, imageOf } from './google-answer.js';
import { generateContentBody } from './google-request.js';

export interface GoogleOptions {
  apiKey: string;
  /** `https://generativelanguage.googleapis.com` (a trailing `/v1beta` is accepted too), or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
}

/** The model `imagegate models --check` reads: getting one model is the Gemini API's cheapest authenticated call. */
const CHECK_MODEL = 'gemini-nano-banana-2.1';

/**
 * Gemini's image models on the Gemini API: one `POST /v1beta/models/{model}:generateContent` per image, the key in
 * `x-goog-api-key` as googleapis/js-genai sends it, answered with the image inline (base64) in the same response.
 * There is no job to follow or cancel: the call is synchronous, so a lost answer is an unknown outcome, never resent
 * (the resilience layer's rule for every synchronous provider).
 */
export function createGoogleProvider(options: GoogleOptions): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '').replace(/\/v1beta$/, '');
  const auth = { 'x-goog-api-key': options.apiKey };
  return {
    id: 'google',
    async generate(request, callOptions) {
      const response = await doFetch(`${base}/v1beta/models/${request.providerModel}:generateContent`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(generateContentBody(request)),
        signal: callOptions?.signal,
      });
      if (!response.ok) throw await failureOf(response);
      // The image is decoded as the answer streams in (a 4K PNG is tens of megabytes of base64).
      const { json, isJson, image } = await readJsonImage(response, 'data', finalImageData);
      if (!isJson) throw new Error(`Google answered ${response.status} with ${response.headers.get('Content-Type') ?? 'no content type'} instead of JSON`);
      return imageOf(json, image);
    },
    check: (signal) => checkRequest('Google', doFetch, `${base}/v1beta/models/${CHECK_MODEL}`, { headers: auth, signal }, describeError),
  };
}
