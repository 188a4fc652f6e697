import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { base64Image, downloadImage, failOnHttpError, isRecord, readBody, stringAt } from '../http-support.js';

export interface OpenAiOptions {
  apiKey: string;
  /** `https://api.openai.com` (a trailing `/v1` is accepted too), or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
}

/**
 * The quality each model is called at. Prices depend on size and quality; the catalogue's by-size prices are
 * the ones for these qualities, so changing one means changing the other.
 */
const OPENAI_QUALITY: Readonly<Record<string, string>> = { 'gpt-image-1': 'medium', 'dall-e-3': 'standard' };

function openAiBody(request: ProviderRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.providerModel, prompt: request.prompt, n: 1, size: `${request.width}x${request.height}` };
  const quality = OPENAI_QUALITY[request.providerModel];
  if (quality !== undefined) body.quality = quality;
  // gpt-image-1 always answers base64 and rejects response_format; DALL-E answers a URL unless asked.
  if (request.providerModel.startsWith('dall-e')) body.response_format = 'b64_json';
  if (request.providerModel.startsWith('gpt-image')) body.output_format = 'png';
  return body;
}

/** OpenAI Images: `POST /v1/images/generations`, answering `{ data: [{ b64_json }] }` (or a URL). */
export function createOpenAiProvider(options: OpenAiOptions): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const auth = { Authorization: `Bearer ${options.apiKey}` };
  return {
    id: 'openai',
    async generate(request, callOptions) {
      const response = await doFetch(`${base}/v1/images/generations`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(openAiBody(request)),
        signal: callOptions?.signal,
      });
      await failOnHttpError('OpenAI', response, ({ json }) => {
        const error = isRecord(json.error) ? json.error : {};
        const message = stringAt(error.message);
        const code = stringAt(error.code) ?? stringAt(error.type);
        return message === undefined ? code : code === undefined ? message : `${message} (${code})`;
      });
      const { json } = await readBody(response);
      const first: unknown = Array.isArray(json.data) ? json.data[0] : undefined;
      const item = isRecord(first) ? first : {};
      const b64 = stringAt(item.b64_json);
      if (b64 !== undefined) return base64Image(b64);
      const url = stringAt(item.url);
      if (url !== undefined) return downloadImage('OpenAI', doFetch, url, { signal: callOptions?.signal, origin: base, headers: auth });
      throw new Error(`OpenAI answered ${response.status} with no image in data[0]`);
    },
  };
}
