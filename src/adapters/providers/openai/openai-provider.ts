import type { FailureKind, ImageProvider, ProviderRequest, TokenUsage } from '../../../ports/image-provider.js';
import { base64Image, checkRequest, downloadImage, failOnHttpError, isRecord, readBody, stringAt, type ReadBody } from '../http-support.js';

export interface OpenAiOptions {
  apiKey: string;
  /** `https://api.openai.com` (a trailing `/v1` is accepted too), or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
}

/**
 * The quality each model is called at. Prices depend on it: the catalogue's pricing rules are for these
 * qualities (tokens at `medium` for gpt-image-2), so changing one means changing the other.
 */
const qualityOf = (model: string): string => (model.startsWith('dall-e') ? 'standard' : 'medium');

/** The model `imagegate models --check` asks about: retrieving one model is OpenAI's cheapest authenticated call. */
const CHECK_MODEL = 'gpt-image-2';

/** The body openai-node's `images.generate` sends (src/resources/images.ts, ImageGenerateParams). */
function openAiBody(request: ProviderRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.providerModel, prompt: request.prompt, n: 1, size: `${request.width}x${request.height}`, quality: qualityOf(request.providerModel) };
  // GPT image models always answer base64 and reject response_format; DALL-E answers a URL unless asked.
  if (request.providerModel.startsWith('dall-e')) body.response_format = 'b64_json';
  else body.output_format = 'png';
  return body;
}

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

/** OpenAI Images: `POST /v1/images/generations`, answering `{ data: [{ b64_json }], usage }` (or a URL). */
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
      const response = await doFetch(`${base}/v1/images/generations`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(openAiBody(request)),
        signal,
      });
      await failOnHttpError('OpenAI', response, describeError, classify);
      const { json } = await readBody(response);
      const first: unknown = Array.isArray(json.data) ? json.data[0] : undefined;
      const item = isRecord(first) ? first : {};
      const usage = usageOf(json);
      const b64 = stringAt(item.b64_json);
      if (b64 !== undefined) return { ...base64Image(b64), usage };
      const url = stringAt(item.url);
      if (url === undefined) throw new Error(`OpenAI answered ${response.status} with no image in data[0]`);
      journal.output = { url };
      return { ...(await downloadImage('OpenAI', doFetch, url, { signal, origin: base, headers: auth })), usage };
    },
    check: (signal) => checkRequest('OpenAI', doFetch, `${base}/v1/models/${CHECK_MODEL}`, { headers: auth, signal }, describeError),
  };
}
