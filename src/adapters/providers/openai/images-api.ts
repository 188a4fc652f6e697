import type { FailureKind, ProviderCallOptions, ProviderImage, ProviderRequest, TokenUsage } from '../../../ports/image-provider.js';
import { base64Image, downloadImage, isRecord, stringAt, type ReadBody } from '../http-support.js';
import { readJsonImage } from '../json-image-reader.js';
import { editForm, generationBody, streamsPartials } from './openai-request.js';
import { readImageStream, type StreamKind } from './openai-stream.js';

/*
 * OpenAI's Images API as any service that speaks it is called: OpenAI itself (openai-provider.ts) and Azure OpenAI
 * (../azure-openai/), which takes the same bodies and answers the same way at other URLs, with another credentials
 * header and a few error codes of its own. What differs is an ImagesApi; the request, the answer and the stream are
 * read here once for both.
 */

export type ImagesOperation = 'generations' | 'edits';

/** What differs between OpenAI's Images API and a service that speaks it. */
export interface ImagesApi {
  /** Names the service in messages: `OpenAI answered 400: ...`. */
  service: string;
  fetch: typeof fetch;
  /** Where `images/generations` or `images/edits` is for this model (may throw for a model the service cannot reach). */
  urlOf(operation: ImagesOperation, providerModel: string): string;
  /** The credentials header, sent with every call, and with a download only on `origin`. */
  auth: Record<string, string>;
  origin: string;
  /** Throws the classified failure for a non-2xx answer, before any stream event was read. */
  failOnError(response: Response): Promise<void>;
  /** Error codes that refuse the request when they come in the stream (the service's moderation). */
  streamRefusals?: ReadonlySet<string>;
}

/** `message (code)` from OpenAI's error body `{ error: { message, type, param, code } }`, or whichever is there. */
export const describeOpenAiError = ({ json }: ReadBody): string | undefined => {
  const error = isRecord(json.error) ? json.error : {};
  const message = stringAt(error.message);
  const code = stringAt(error.code) ?? stringAt(error.type);
  return message === undefined ? code : code === undefined ? message : `${message} (${code})`;
};

/** Out of quota is a 429 at OpenAI, but no retry will help: it is the operator's to fix. */
const ACCOUNT_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached', 'invalid_api_key', 'model_not_found']);
export const classifyOpenAiError = (_status: number, { json }: ReadBody): FailureKind | undefined => {
  const error = isRecord(json.error) ? json.error : {};
  const code = stringAt(error.code) ?? stringAt(error.type);
  return code !== undefined && ACCOUNT_CODES.has(code) ? 'account' : undefined;
};

/**
 * With input images, `images.edit` (multipart `POST .../images/edits`; fetch sets the Content-Type with its
 * boundary from the FormData); without, `images.generate` (JSON `POST .../images/generations`).
 */
function imagesCall(
  api: ImagesApi,
  request: ProviderRequest,
  partialImages: number | undefined,
): { url: string; kind: StreamKind; headers: Record<string, string>; body: FormData | string } {
  const images = request.images ?? [];
  if (images.length > 0)
    return { url: api.urlOf('edits', request.providerModel), kind: 'image_edit', headers: {}, body: editForm(request, images, partialImages) };
  return {
    url: api.urlOf('generations', request.providerModel),
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

/** One generation or edit, answered `{ data: [{ b64_json }], usage }` (or a URL), or streamed with its partials. */
export async function generateWithImagesApi(api: ImagesApi, request: ProviderRequest, callOptions?: ProviderCallOptions): Promise<ProviderImage> {
  const signal = callOptions?.signal;
  const journal = callOptions?.journal ?? {};
  const download = (url: string) => downloadImage(api.service, api.fetch, url, { signal, origin: api.origin, headers: api.auth });
  // An image already made and answered as a URL: a retry downloads it again rather than paying for another.
  if (journal.output !== undefined) return download(journal.output.url);
  const partials = callOptions?.partialImages;
  const streamed = streamsPartials(request, partials?.count);
  const { url, kind, headers, body } = imagesCall(api, request, partials?.count);
  const response = await api.fetch(url, { method: 'POST', headers: { ...api.auth, ...headers }, body, signal });
  // A refusal or an outage is answered before any event, as a plain JSON error: classified as today.
  await api.failOnError(response);
  if (streamed) {
    const completed = await readImageStream(response, kind, partials, signal, { service: api.service, refusals: api.streamRefusals });
    const b64 = stringAt(completed.b64_json);
    if (b64 === undefined) throw new Error(`${api.service}'s ${kind}.completed event had no b64_json`);
    return { ...base64Image(b64), usage: usageOf(completed) };
  }
  // The image is decoded as the answer streams in (about 2.6 MB of base64 for a 1024x1024 PNG).
  const { json, image } = await readJsonImage(response, 'b64_json', firstItem);
  const usage = usageOf(json);
  if (image !== undefined) return { ...image, usage };
  const first = firstItem(json);
  const output = stringAt(isRecord(first) ? first.url : undefined);
  if (output === undefined) throw new Error(`${api.service} answered ${response.status} with no image in data[0]`);
  journal.output = { url: output };
  return { ...(await download(output)), usage };
}
