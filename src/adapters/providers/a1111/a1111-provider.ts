import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { base64Image, checkRequest, clip, failOnHttpError, fastApiValidation, readBody, stringAt, type ReadBody } from '../http-support.js';

export interface A1111Options {
  /** The web UI's address, e.g. `http://127.0.0.1:7860` (started with `--api`). */
  baseUrl: string;
  /** For a server started with `--api-auth user:password`. */
  username?: string;
  password?: string;
  fetch?: typeof fetch;
}

/** The provider model (catalogue: `a1111/default`) that runs whatever checkpoint the server has loaded, without switching. */
const A1111_LOADED_CHECKPOINT = 'default';

function a1111Body(request: ProviderRequest, accepts: ReadonlySet<string>): Record<string, unknown> {
  const body: Record<string, unknown> = { prompt: request.prompt, batch_size: 1, n_iter: 1, send_images: true, save_images: false };
  if (accepts.has('negative_prompt') && request.negativePrompt !== undefined) body.negative_prompt = request.negativePrompt;
  if (accepts.has('width')) body.width = request.width;
  if (accepts.has('height')) body.height = request.height;
  if (accepts.has('seed')) body.seed = request.seed;
  if (accepts.has('steps') && request.steps !== undefined) body.steps = request.steps;
  if (accepts.has('guidance') && request.guidance !== undefined) body.cfg_scale = request.guidance;
  if (request.providerModel !== A1111_LOADED_CHECKPOINT) body.override_settings = { sd_model_checkpoint: request.providerModel };
  return body;
}

/** FastAPI's `{ detail: [{ loc, msg }] }` for bad input; A1111's own `{ error, detail, errors }` for everything else. */
const describeError = ({ json, text }: ReadBody): string | undefined => {
  const invalid = fastApiValidation(json);
  if (invalid !== undefined) return invalid;
  const parts = [stringAt(json.error), stringAt(json.detail), stringAt(json.errors)].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? [...new Set(parts)].join(': ') : text === '' ? undefined : clip(text);
};

/**
 * A self-hosted AUTOMATIC1111, Forge or SD.Next web UI (they share the `/sdapi/v1` API): `POST /sdapi/v1/txt2img`, answering `{ images: [<base64 PNG>] }`.
 * A named checkpoint is switched to for this one call through `override_settings`.
 */
export function createA1111Provider(options: A1111Options, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.username !== undefined && options.password !== undefined) {
    headers.Authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  }
  return {
    id: 'a1111',
    async generate(request, callOptions) {
      const response = await doFetch(`${base}/sdapi/v1/txt2img`, {
        method: 'POST',
        headers,
        body: JSON.stringify(a1111Body(request, parametersOf(request.providerModel))),
        signal: callOptions?.signal,
      });
      await failOnHttpError('Automatic1111', response, describeError);
      const { json } = await readBody(response);
      const first = Array.isArray(json.images) ? stringAt(json.images[0]) : undefined;
      if (first === undefined) throw new Error(`Automatic1111 answered ${response.status} with no image in images[0]`);
      return base64Image(first);
    },
    // The checkpoint list (modules/api/api.py, GET /sdapi/v1/sd-models): read-only, and it proves --api and the credentials.
    check: (signal) => {
      const { Authorization } = headers;
      return checkRequest(
        'Automatic1111',
        doFetch,
        `${base}/sdapi/v1/sd-models`,
        { headers: Authorization === undefined ? {} : { Authorization }, signal },
        describeError,
      );
    },
  };
}
