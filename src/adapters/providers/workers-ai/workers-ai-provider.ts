import type { FailureKind, ImageProvider, ProviderImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderOutcomeUnknown } from '../../../ports/image-provider.js';
import { base64Image, checkRequest, failOnHttpError, isRecord, readBody, stringAt, type ReadBody } from '../http-support.js';
import type { MaskConverter } from './inpainting-mask.js';
import { jsonBody, multipartBody, sdImageFields } from './workers-ai-inputs.js';
import { DEFAULT_TIMEOUT_MS, isMultipart, kindOfCodes, workersAiFields } from './workers-ai-protocol.js';

export interface WorkersAiOptions {
  accountId: string;
  apiToken: string;
  /** `https://api.cloudflare.com/client/v4`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** PROVIDER_TIMEOUT_MS (src/providers.ts passes it), so the adapter never waits longer than the call may. */
  timeoutMs?: number;
  /**
   * Makes Stable Diffusion inpainting's white-means-repaint mask from imagegate's transparent-means-change one; it
   * decodes pixels, so it runs on the CPU pool. Without it an inpainting call with a mask fails as a settings problem.
   */
  convertMask?: MaskConverter;
}

const errorsOf = (json: Record<string, unknown>): Record<string, unknown>[] => (Array.isArray(json.errors) ? json.errors.filter(isRecord) : []);
const reasonsOf = (json: Record<string, unknown>): string =>
  errorsOf(json)
    .map((e) => stringAt(e.message) ?? `code ${String(e.code ?? '?')}`)
    .join('; ');

/** Workers AI's own codes win over the status where they say more (./workers-ai-protocol.ts). */
const classify = (_status: number, { json }: ReadBody): FailureKind | undefined => kindOfCodes(errorsOf(json).map((e) => Number(e.code)));

/**
 * Workers AI over REST: `POST /accounts/{account}/ai/run/{model}`, JSON for most models and multipart for FLUX.2
 * (input images go as the form's `input_image_N` files for FLUX.2, as byte arrays in the JSON for Stable Diffusion 1.5).
 * Some models answer JSON with a base64 image, others the raw image bytes; failures come as
 * `{ success: false, errors: [...] }`.
 */
export function createWorkersAiProvider(options: WorkersAiOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const account = `${options.baseUrl}/accounts/${encodeURIComponent(options.accountId)}`;
  const auth = { Authorization: `Bearer ${options.apiToken}` };
  return {
    id: 'workers-ai',
    async generate(request, callOptions) {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = callOptions?.signal === undefined ? timeout : AbortSignal.any([timeout, callOptions.signal]);
      const progress = { sent: false };
      try {
        return await run(request, signal, progress);
      } catch (error) {
        // The request was sent and may be running (and billed): a provider error the caller can be told about, not a
        // bug. Before it was sent (the mask still being converted) nothing can have been made.
        if (timeout.aborted && callOptions?.signal?.aborted !== true && progress.sent) {
          throw new ProviderOutcomeUnknown(`Workers AI did not answer within ${Math.round(timeoutMs / 1000)} s; the request may have reached it`, true);
        }
        throw error;
      }
    },
    // Listing the account's text-to-image models needs only "Workers AI Read" and runs nothing.
    check: (signal) =>
      checkRequest(
        'Workers AI',
        doFetch,
        `${account}/ai/models/search?task=Text-to-Image`,
        { headers: auth, signal },
        ({ json }) => reasonsOf(json) || undefined,
      ),
  };

  async function run(request: ProviderRequest, signal: AbortSignal, progress: { sent: boolean }): Promise<ProviderImage> {
    const url = `${account}/ai/run/${request.providerModel}`;
    const fields = workersAiFields(request, parametersOf(request.providerModel));
    const multipart = isMultipart(request.providerModel);
    const body = multipart ? multipartBody(fields, request.images ?? []) : jsonBody(fields, await sdImageFields(request, options.convertMask, signal));
    signal.throwIfAborted();
    progress.sent = true;
    const response = await doFetch(url, {
      method: 'POST',
      // For multipart, fetch sets the Content-Type with its boundary from the FormData body.
      headers: multipart ? auth : { ...auth, 'Content-Type': 'application/json' },
      body,
      signal,
    });
    const type = response.headers.get('Content-Type') ?? '';
    if (type.startsWith('image/') && response.ok) {
      return { bytes: new Uint8Array(await response.arrayBuffer()), contentType: type };
    }
    await failOnHttpError('Workers AI', response, ({ json }) => reasonsOf(json) || undefined, classify);
    const { json, isJson } = await readBody(response);
    const image = isRecord(json.result) ? stringAt(json.result.image) : undefined;
    if (json.success === false || image === undefined) {
      const reasons = reasonsOf(json);
      throw new Error(
        `Workers AI answered ${response.status} with ${isJson ? `no image in the answer${reasons === '' ? '' : `: ${reasons}`}` : `an unexpected ${type || 'body'}`}`,
      );
    }
    return base64Image(image);
  }
}
