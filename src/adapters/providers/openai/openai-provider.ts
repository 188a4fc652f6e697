import type { ImageProvider } from '../../../ports/image-provider.js';
import { checkRequest, failOnHttpError } from '../http-support.js';
import { classifyOpenAiError, describeOpenAiError, generateWithImagesApi, type ImagesApi } from './images-api.js';

export interface OpenAiOptions {
  apiKey: string;
  /** `https://api.openai.com` (a trailing `/v1` is accepted too), or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
}

/** The model `imagegate models --check` asks about: retrieving one model is OpenAI's cheapest authenticated call. */
const CHECK_MODEL = 'gpt-image-2';

/** OpenAI Images: generations and edits, both answering `{ data: [{ b64_json }], usage }` (or a URL). */
export function createOpenAiProvider(options: OpenAiOptions): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const auth = { Authorization: `Bearer ${options.apiKey}` };
  const api: ImagesApi = {
    service: 'OpenAI',
    fetch: doFetch,
    // The model travels in the body; the path is the operation's alone.
    urlOf: (operation) => `${base}/v1/images/${operation}`,
    auth,
    origin: base,
    failOnError: (response) => failOnHttpError('OpenAI', response, describeOpenAiError, classifyOpenAiError),
  };
  return {
    id: 'openai',
    generate: (request, callOptions) => generateWithImagesApi(api, request, callOptions),
    check: (signal) => checkRequest('OpenAI', doFetch, `${base}/v1/models/${CHECK_MODEL}`, { headers: auth, signal }, describeOpenAiError),
  };
}
