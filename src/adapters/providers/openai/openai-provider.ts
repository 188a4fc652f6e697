import type { FailureKind, ImageProvider, ProviderRequest, TokenUsage } from '../../../ports/image-provider.js';
import { base64Image, checkRequest, downloadImage, failOnHttpError, isRecord, stringAt, type ReadBody } from '../http-support.js';
import { readJsonImage } from '../json-image-reader.js';
import { editForm, generationBody, streamsPartials } from './openai-request.js';
import { readImageStream, type StreamKind } from './openai-stream.js';

export interface OpenAiOptions {
  apiKey: string;
  /** `https://api.openai.com` (a trailing `/v1` is accepted too), or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
}

/** The model `imagegate models --check` asks about: retrieving one model is OpenAI's cheapest authenticated call. */
const CHECK_MODEL = 'gpt-image-2';

const describeError = ({ json }: ReadBody): string | undefined => {
  const error = isRecord(json.error) ? json.error : {};
  const message = stringAt(error.message);
  const code = stringAt(error.code) ?? stringAt(error.type);
  return message === undefined ? code : code === undefined ? message : `${message} (${code})`;
};

/** Out of quota is a 429 at OpenAI, but no retry will help: it is the operator's to fix. */
const ACCOUNT_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached', 'invalid_api_key', 'model_not_found']);
const classify = (_status: number, { json }: ReadBody): FailureKind | undefined => {
  const error = isRecord(json.error) ? json.error : {};
  const code = stringAt(error.code) ?? stringAt(error.type);
  return code !== undefined && ACCOUNT_CODES.has(code) ? 'account' : undefined;
};

/**
 * With input images, `images.edit` (multipart `POST /v1/images/edits`; fetch sets the Content-Type with its
 * boundary from the FormData); without, `images.generate` (JSON `POST /v1/images/generations`).
 */
function imagesCall(
  request: ProviderRequest,
  partialImages: number | undefined,
): { path: string; kind: StreamKind; headers: Record<string, string>; body: FormData | string } {
  const images = request.images ?? [];
  if (images.length > 0) return { path: '/v1/images/edits', kind: 'image_edit', headers: {}, body: editForm(request, images, partialImages) };
  return {
    path: '/v1/images/generations',
    kind: 'image_generation',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(generationBody(request, partialImages)),
  };
}

/** `data[0]`, where the image of a generation or an edit is. */
const firstItem = (json: Record<string, unknown>): unknown => (Array.isArray(json.data) ? json.data[0] : undefined);

/** `usage` as the GPT image models report it (ImagesResponse.Usage). */
function usageOf(json: Record<string, unknown>): TokenUsage | undefined {
  const usage = isRecord(json.usage) ? json.usage : undefined;
  if (usage === undefined) return undefined;
  const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const input = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : undefined;
  const output = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : undefined;
  return {
    inputTextTokens: input === undefined ? count(usage.input_tokens) : count(input.text_tokens),
    inputImageTokens: input === undefined ? 0 : count(input.image_tokens),
    outputImageTokens: output === undefined ? count(usage.output_tokens) : count(output.image_tokens),
    outputTextTokens: output === undefined ? 0 : count(output.text_tokens),
  };
}

/** OpenAI Images: generations and edits, both answering `{ data: [{ b64_json }], usage }` (or a URL). */
export function createOpenAiProvider(options: OpenAiOptions): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const auth = { Authorization: `Bearer ${options.apiKey}` };
  return {
    id: 'openai',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const journal = callOptions?.journal ?? {};
      // An image already made and answered as a URL: a retry downloads it again rather than paying for another.
      if (journal.output !== undefined) return downloadImage('OpenAI', doFetch, journal.output.url, { signal, origin: base, headers: auth });
      const partials = callOptions?.partialImages;
      const streamed = streamsPartials(request, partials?.count);
      const { path, kind, headers, body } = imagesCall(request, partials?.count);
      const response = await doFetch(`${base}${path}`, { method: 'POST', headers: { ...auth, ...headers }, body, signal });
      // A refusal or an outage is answered before any event, as a plain JSON error: classified as today.
      await failOnHttpError('OpenAI', response, describeError, classify);
      if (streamed) {
        const completed = await readImageStream(response, kind, partials, signal);
        const b64 = stringAt(completed.b64_json);
        if (b64 === undefined) throw new Error(`OpenAI's ${kind}.completed event had no b64_json`);
        return { ...base64Image(b64), usage: usageOf(completed) };
      }
      // The image is decoded as the answer streams in (about 2.6 MB of base64 for a 1024x1024 PNG).
      const { json, image } = await readJsonImage(response, 'b64_json', firstItem);
      const usage = usageOf(json);
      if (image !== undefined) return { ...image, usage };
      const first = firstItem(json);
      const url = stringAt(isRecord(first) ? first.url : undefined);
      if (url === undefined) throw new Error(`OpenAI answered ${response.status} with no image in data[0]`);
      journal.output = { url };
      return { ...(await downloadImage('OpenAI', doFetch, url, { signal, origin: base, headers: auth })), usage };
    },
    check: (signal) => checkRequest('OpenAI', doFetch, `${base}/v1/models/${CHECK_MODEL}`, { headers: auth, signal }, describeError),
  };
}
