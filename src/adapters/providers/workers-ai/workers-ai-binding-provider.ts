import type { ImageProvider, ProviderImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderAccountProblem, ProviderOutcomeUnknown, ProviderRefusal, ProviderUnavailable } from '../../../ports/image-provider.js';
import { sniffImageType } from '../sniff-image-type.js';
import type { MaskConverter } from './inpainting-mask.js';
import { multipartBody, sdImageFields } from './workers-ai-inputs.js';
import { ACCOUNT_CODES, DEFAULT_TIMEOUT_MS, isMultipart, REFUSAL_CODES, RETRY_STATUS, workersAiFields } from './workers-ai-protocol.js';

/**
 * The part of a Worker's AI binding (`env.AI`) this adapter uses, written out here so the Node build needs no
 * Workers globals in its types. `signal` is one of the binding's own options (workerd
 * src/cloudflare/internal/ai-api.ts, AiOptions, at 6552d999); a binding that ignores it is still raced below.
 */
export interface AiBinding {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

export interface WorkersAiBindingOptions {
  ai: AiBinding;
  /** PROVIDER_TIMEOUT_MS, so the adapter never waits longer than the call may. */
  timeoutMs?: number;
  /** As for the REST adapter: inpainting's mask made white-means-repaint; without it a masked call is a settings problem. */
  convertMask?: MaskConverter;
}

/*
 * What `env.AI.run` resolves to, per model (workerd ai-api.ts `run`, at 6552d999: a JSON answer comes back parsed,
 * anything else as the response's body stream), with each model's output schema from cloudflare/cloudflare-docs
 * src/content/workers-ai-models/<name>.json:
 * - `{ image: <base64> }`: flux-1-schnell, lucid-origin ("contentType": "application/json"), flux-2-dev,
 *   flux-2-klein-4b and -9b (output object with `image`, "Generated image as Base64 string").
 * - a ReadableStream of PNG bytes: stable-diffusion-xl-base-1.0, stable-diffusion-xl-lightning, dreamshaper-8-lcm,
 *   stable-diffusion-v1-5-img2img and -inpainting ("contentType": "image/png", "format": "binary").
 * - a ReadableStream of JPEG bytes: phoenix-1.0 ("contentType": "image/jpeg", "format": "binary").
 * Failures: the binding throws InferenceUpstreamError with the message `${internalCode}: ${description}` (or the
 * first of `errors` as `${code}: ${message}`), and AiInternalError for inputs it refuses before any request.
 */

/** A Workers AI code at the start of the message, after any `AiError: ` style prefix. */
const CODED = /^(?:[A-Za-z]\w*: )*(\d{4}): ([^]*)$/;
const clip = (text: string, max = 300): string => (text.length > max ? `${text.slice(0, max)}...` : text);

/**
 * Workers AI through a Worker's AI binding: no account id, no token, no URL. The same fields as over REST
 * (./workers-ai-protocol.ts); FLUX.2's multipart form goes as `{ multipart: { body, contentType } }`.
 */
export function createWorkersAiBindingProvider(
  options: WorkersAiBindingOptions,
  parametersOf: (model: string) => ReadonlySet<string> = () => new Set(),
): ImageProvider {
  return {
    id: 'workers-ai',
    async generate(request, callOptions) {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      const caller = callOptions?.signal;
      const signal = caller === undefined ? timeout : AbortSignal.any([timeout, caller]);
      const progress = { sent: false };
      try {
        return await run(request, signal, progress);
      } catch (error) {
        if (caller?.aborted === true) throw caller.reason;
        // Sent and maybe running (and billed): never to be sent again without the caller knowing.
        if (timeout.aborted && progress.sent) {
          throw new ProviderOutcomeUnknown(`Workers AI did not answer within ${Math.round(timeoutMs / 1000)} s; the request may have reached it`, true);
        }
        // Anything else is already what it means: thrown before the call (a refused input image, no mask converter),
        // classified from the binding's failure, or an answer that holds no image (as over REST, a plain Error).
        throw error;
      }
    },
  };

  async function run(request: ProviderRequest, signal: AbortSignal, progress: { sent: boolean }): Promise<ProviderImage> {
    const inputs = await inputsFor(request, signal);
    signal.throwIfAborted();
    progress.sent = true;
    let answer: unknown;
    try {
      answer = await untilAborted(options.ai.run(request.providerModel, inputs, { signal }), signal);
    } catch (error) {
      throw classify(error);
    }
    return imageOf(answer, signal);
  }

  async function inputsFor(request: ProviderRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    const fields = workersAiFields(request, parametersOf(request.providerModel));
    if (isMultipart(request.providerModel)) {
      // A FormData exposes neither its bytes nor its boundary; a Response serialises it and names both, as Cloudflare's
      // binding example does (changelog 2026-01-15-flux-2-klein-4b-workers-ai.mdx, `new Response(form)`).
      const encoded = new Response(multipartBody(fields, request.images ?? []));
      return { multipart: { body: encoded.body, contentType: encoded.headers.get('Content-Type') ?? 'multipart/form-data' } };
    }
    // The binding JSON-encodes the inputs itself, where a Uint8Array would become `{"0":137,...}`: the schemas want
    // an array of numbers, as Cloudflare's example sends (`image: [...new Uint8Array(...)]`), so jsonBody is not used.
    const images = await sdImageFields(request, options.convertMask, signal);
    return { ...fields, ...Object.fromEntries(Object.entries(images).map(([name, bytes]) => [name, Array.from(bytes)])) };
  }
}

/** Waits for `work` until `signal` aborts; a stream that arrives after that is cancelled, since nobody will read it. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason);
      work.then((late) => (late instanceof ReadableStream ? late.cancel() : undefined)).catch(() => undefined);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function imageOf(answer: unknown, signal: AbortSignal): Promise<ProviderImage> {
  if (answer instanceof ReadableStream) return checked(await readAll(answer, signal));
  const image = typeof answer === 'object' && answer !== null && 'image' in answer ? answer.image : undefined;
  if (typeof image === 'string' && image !== '') return checked(fromBase64(image));
  throw new Error(`Workers AI answered ${answer === null || answer === undefined ? 'nothing' : `a ${typeof answer}`} with no image in it`);
}

function checked(bytes: Uint8Array): ProviderImage {
  const contentType = sniffImageType(bytes);
  if (!contentType.startsWith('image/')) throw new Error(`Workers AI answered ${bytes.length} bytes that are not a PNG, JPEG or WebP image`);
  return { bytes, contentType };
}

/** `atob` rather than Buffer (Node only); a `data:image/...;base64,` prefix is dropped as over REST. */
function fromBase64(text: string): Uint8Array {
  const comma = text.startsWith('data:') ? text.indexOf(',') : -1;
  try {
    return Uint8Array.from(atob(comma >= 0 ? text.slice(comma + 1) : text), (char) => char.charCodeAt(0));
  } catch {
    throw new Error('Workers AI answered an image that is not valid base64');
  }
}

/** The whole stream, read under the call's deadline: a stalled body is cancelled, not waited on forever. */
async function readAll(stream: ReadableStream<unknown>, signal: AbortSignal): Promise<Uint8Array> {
  const reader = stream.getReader();
  const onAbort = (): void => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Uint8Array[] = [];
    for (let next = await readLost(reader); !next.done; next = await readLost(reader)) {
      if (!(next.value instanceof Uint8Array)) throw new Error('Workers AI answered a stream of something other than bytes');
      chunks.push(next.value);
    }
    // A cancelled read ends like a finished one; only the signal tells them apart.
    signal.throwIfAborted();
    const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A stream that fails mid-body lost the rest of an answer the model has made: the outcome is unknown. */
async function readLost<T>(reader: ReadableStreamDefaultReader<T>): Promise<ReadableStreamReadResult<T>> {
  try {
    return await reader.read();
  } catch (error) {
    throw classify(error);
  }
}

/**
 * A failure thrown by the binding once the call was made. Workers AI's own code decides, as over REST; a code nobody documents, or
 * none at all, leaves the outcome unknown, and only the code (never the raw error) is repeated to the caller.
 */
function classify(error: unknown): Error {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  // workerd throws this only before its fetch (content type missing, two streams): nothing was sent.
  if (name === 'AiInternalError') return new Error(`the Workers AI binding refused the inputs before sending them: ${clip(message)}`);
  const match = CODED.exec(message);
  const code = Number(match?.[1]);
  const detail = `Workers AI answered ${code}: ${clip(match?.[2]?.trim() ?? '')}`;
  if (ACCOUNT_CODES.has(code)) return new ProviderAccountProblem(`${detail} (check the Worker's Workers AI plan and the model catalogue)`);
  const status = RETRY_STATUS.get(code);
  if (status !== undefined) return new ProviderUnavailable(detail, status);
  if (REFUSAL_CODES.has(code)) return new ProviderRefusal(detail);
  const which = match === null ? 'with no Workers AI error code' : `with code ${code}, which Workers AI does not document`;
  return new ProviderOutcomeUnknown(`Workers AI failed ${which} after the request was sent; the request may have reached it`, false);
}
