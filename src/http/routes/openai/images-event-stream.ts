import type { Context, TypedResponse } from 'hono';
import type { Deps, RequestContext } from '../../../domain/context.js';
import { ApiError } from '../../../domain/errors.js';
import { acceptGeneration } from '../../../domain/generations/accept-generation.js';
import { awaitGeneration, DEFAULT_WAIT_MS } from '../../../domain/generations/await-generation.js';
import { imageOfGeneration, type GenerateImageInput } from '../../../domain/images/generate-image.js';
import type { ImageRecord } from '../../../domain/images/image-record.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';
import type { GenerationRow } from '../../../ports/database.js';
import { deprecationHeaders } from '../../deprecation.js';
import { toOpenAiBody } from '../../openai/openai-errors.js';
import { answerHead, backgroundOf, estimateUsage, qualityOf, type InputSizes } from './answer-head.js';
import { imageBase64, streamedJson } from './b64-answer.js';
import { asOpenAiError, type FieldNames } from './generate-all.js';
import type { OpenAiImagesResponse } from './images-answer.js';
import { warningHeaders } from './openai-options.js';

const encoder = new TextEncoder();

export interface ImagesEventStreamRequest {
  kind: 'image_generation' | 'image_edit';
  n: number;
  /** One generation's request; each of the `n` is accepted from it. */
  input: GenerateImageInput;
  model: CatalogEntry | undefined;
  /** The size the partial events name (the completed events name the image's own). */
  size: string;
  names?: FieldNames;
  inputs?: InputSizes;
  warnings?: readonly string[];
  /** Undoes what was stored for the request (an edit's uploads) when no generation could be accepted. */
  discard?: () => Promise<void>;
}

/**
 * The answer of `stream: true`: Server-Sent Events in OpenAI's format (openai-node 7.57 resources/images.d.ts,
 * `ImageGenStreamEvent` and `ImageEditStreamEvent`). The first generation is accepted before the stream starts, so a
 * refusal is still a plain 4xx in OpenAI's error shape. Then, for each of the `n` images in turn: its
 * `generation.partial_image` events, as they come, become `<kind>.partial_image` events (OpenAI's GPT image models
 * draw them; other models none, which OpenAI's contract allows), and once it succeeded a `<kind>.completed` event
 * carries the stored image and its usage. A generation that fails ends the stream with an `error` event in OpenAI's
 * error shape, which openai-node's stream reader throws as an APIError (core/streaming.js: `sse.event === 'error'`).
 * A client that leaves mid-stream still finds its images in the gallery: the generations run to their end.
 */
export async function imagesEventStream(
  c: Context,
  deps: Deps,
  ctx: RequestContext,
  request: ImagesEventStreamRequest,
): Promise<TypedResponse<OpenAiImagesResponse, 200, 'json'>> {
  const first = await accept(deps, ctx, request).catch(async (error: unknown) => {
    await request.discard?.();
    throw error;
  });
  const out = eventWriter();
  // Subscribed before the response starts, so partials drawn meanwhile are not missed.
  const unsubscribe = await subscribePartials(deps, first.id, request, out);
  void run(deps, ctx, request, first, unsubscribe, out);
  const headers = { ...deprecationHeaders(request.model, deps.clock.now()), ...warningHeaders(request.warnings ?? []) };
  return streamedJson<OpenAiImagesResponse>(c.body(out.body, 200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }));
}

const accept = (deps: Deps, ctx: RequestContext, request: ImagesEventStreamRequest): Promise<GenerationRow> =>
  acceptGeneration({ deps, ctx, input: request.input }).catch((error: unknown) => {
    throw asOpenAiError(error, request.model, request.names ?? {});
  });

/** Each generation in turn, one after another as the JSON answer makes them, until all are sent or one fails. */
async function run(
  deps: Deps,
  ctx: RequestContext,
  request: ImagesEventStreamRequest,
  first: GenerationRow,
  firstUnsubscribe: () => void,
  out: EventWriter,
): Promise<void> {
  let made = 0;
  // Waiting ends when the client leaves (the body cancelled), never the generation: it runs to its end.
  const signal = ctx.signal === undefined ? out.left : AbortSignal.any([ctx.signal, out.left]);
  try {
    for (let index = 0; index < request.n && !out.closed(); index += 1) {
      const generation = index === 0 ? first : await accept(deps, ctx, request);
      const unsubscribe = index === 0 ? firstUnsubscribe : await subscribePartials(deps, generation.id, request, out);
      try {
        const waited = await awaitGeneration(deps, generation.id, { timeoutMs: DEFAULT_WAIT_MS, signal });
        const image = await imageOfGeneration(deps, generation, waited);
        made += 1;
        out.write(...(await completedEvent(deps, request, image, signal)));
      } finally {
        unsubscribe();
      }
    }
  } catch (error) {
    // A client that left stops waiting only: its generation still runs from the uploads, so they stay.
    if (!out.closed() && !signal.aborted) {
      if (made === 0) await request.discard?.().catch(() => undefined);
      deps.logger.warn(
        { requestId: ctx.requestId, made, wanted: request.n, err: error instanceof Error ? error.message : String(error) },
        'image stream ended on a failed generation',
      );
      out.write(encoder.encode(`event: error\ndata: ${JSON.stringify({ type: 'error', ...openAiErrorOf(error) })}\n\n`));
    }
  } finally {
    out.close();
  }
}

/** An ApiError as OpenAI words it; anything else as a server error that says no more than the log needs to. */
function openAiErrorOf(error: unknown): ReturnType<typeof toOpenAiBody> {
  if (error instanceof ApiError) return toOpenAiBody(error);
  return {
    error: {
      message: 'Image generation failed: the generation failed on an internal error (the server log has the details)',
      type: 'server_error',
      param: null,
      code: 'generation_failed',
    },
  };
}

/** Writes the generation's partial images into the stream as OpenAI's `<kind>.partial_image` events. */
function subscribePartials(
  deps: Pick<Deps, 'events' | 'clock'>,
  generationId: string,
  request: ImagesEventStreamRequest,
  out: EventWriter,
): Promise<() => void> {
  const { model, input } = request;
  const fields = {
    background: backgroundOf(input, model),
    created_at: Math.floor(deps.clock.now().getTime() / 1000),
    output_format: input.output_format ?? 'png',
  };
  return deps.events.subscribe(generationId, (event) => {
    if (event.type !== 'generation.partial_image') return;
    const { index, b64_json: b64 } = event.data;
    if (typeof index !== 'number' || typeof b64 !== 'string') return;
    const type = `${request.kind}.partial_image`;
    const data = { type, b64_json: b64, ...fields, partial_image_index: index, quality: qualityOf(input, model) ?? 'auto', size: request.size };
    out.write(encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`));
  });
}

/** One image's `<kind>.completed` event, its base64 made in the CPU pool and written as bytes (no string of megabytes). */
async function completedEvent(
  deps: Pick<Deps, 'blobs' | 'codec' | 'clock'>,
  request: ImagesEventStreamRequest,
  image: ImageRecord,
  signal: AbortSignal | undefined,
): Promise<Uint8Array[]> {
  const head = answerHead(Math.floor(deps.clock.now().getTime() / 1000), [image], request.model, request.inputs ?? []);
  const encoded = await imageBase64(deps, image, signal);
  const type = `${request.kind}.completed`;
  const fields = {
    type,
    created_at: head.created,
    background: head.background ?? 'auto',
    output_format: head.output_format ?? 'png',
    quality: head.quality ?? 'auto',
    size: head.size ?? `${image.width}x${image.height}`,
    usage: estimateUsage([image], request.model, request.inputs ?? []),
    b64_json: '',
  };
  const { b64_json: _unused, ...rest } = fields;
  // The base64 goes in as the CPU pool made it (ASCII bytes, no escaping needed).
  return [encoder.encode(`event: ${type}\ndata: ${JSON.stringify(rest).slice(0, -1)},"b64_json":"`), encoded, encoder.encode('"}\n\n')];
}

interface EventWriter {
  body: ReadableStream<Uint8Array>;
  write(...chunks: Uint8Array[]): void;
  close(): void;
  /** Aborted when the client cancels the body. */
  left: AbortSignal;
  /** The client left (or the stream ended): nothing more is written. */
  closed(): boolean;
}

/** A body written to as events happen; once the client cancels it, writes are dropped. */
function eventWriter(): EventWriter {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let done = false;
  const left = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    start(given) {
      controller = given;
    },
    cancel() {
      done = true;
      left.abort(new Error('the client left the stream'));
    },
  });
  return {
    body,
    write(...chunks) {
      if (done) return;
      for (const chunk of chunks) controller?.enqueue(chunk);
    },
    close() {
      if (done) return;
      done = true;
      controller?.close();
    },
    left: left.signal,
    closed: () => done,
  };
}
