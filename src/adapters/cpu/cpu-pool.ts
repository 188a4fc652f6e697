import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, type MessagePort, type TransferListItem } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { CodecCallOptions, EncodedImage, ImageCodec, VerifiedImage } from '../../ports/image-codec.js';
import type { EditInput } from '../providers/procedural/edit.js';
import type { OnRenderStage, RenderInput, RenderStage } from '../providers/procedural/render.js';
import type { EncodeOutput, RenderOutput } from './cpu-tasks.js';
import { createFifoLane } from './fifo-lane.js';

/**
 * Worker threads for the CPU-heavy work (drawing the offline model's images, decoding and encoding PNG),
 * so the event loop keeps answering requests, /health included, while 2048x2048 images render.
 * It is also the service's ImageCodec, since normalising a provider's image is the same kind of work.
 */
export interface CpuPool extends ImageCodec {
  /** Draws and encodes one offline image; `threadId` names the worker thread that did it. */
  render(input: RenderInput, options?: RenderCallOptions): Promise<RenderOutput>;
  /** The offline model's edit of an input image (with or without a mask), encoded as a PNG. */
  edit(input: EditInput, options?: RenderCallOptions): Promise<RenderOutput>;
  /**
   * A mask in imagegate's semantics (transparent = change) as a greyscale PNG where white = change and black = keep,
   * for providers that read masks by brightness (Stability's inpaint). Rejects with the decoder's reason.
   */
  inpaintMask(mask: Uint8Array, options?: CodecCallOptions): Promise<Uint8Array>;
  readonly threads: number;
  /** Starts the threads now (they start with the first task otherwise); does nothing once started or closed. */
  warm(): void;
  /** Ends the threads; tasks still running reject. Safe to call twice. */
  close(): Promise<void>;
}

export interface RenderCallOptions extends CodecCallOptions {
  /** Each stage of the drawing as it starts, in order, all of them before the call resolves. */
  onStage?: OnRenderStage;
}

export interface CpuPoolOptions {
  /** Worker threads at most; by default one fewer than the CPUs (see defaultCpuThreads). */
  threads?: number;
  /** How long a thread may wait for work before it ends (CPU_IDLE_TIMEOUT_MS by default). */
  idleTimeoutMs?: number;
}

/**
 * A thread with nothing to do for this long ends, and its V8 heap and its share of libvips' memory go back to
 * the system (about 43 MB of RSS per thread after small generates, see bench scenario 5). Starting one again
 * costs a few hundred milliseconds, once, for the first image after a quiet half-minute: little next to a provider call.
 */
export const CPU_IDLE_TIMEOUT_MS = 30_000;

/**
 * One core is left to the event loop (HTTP, the database, the queue) and libvips' own helper threads;
 * with a single CPU there is still one worker, the point being to keep the event loop free, not to be faster.
 */
export const defaultCpuThreads = (): number => Math.max(1, availableParallelism() - 1);

/**
 * Run from the TypeScript sources (vitest, tsx), this module's URL ends in `.ts`: the worker then loads
 * `cpu-tasks.ts` through tsx's loader, which a worker does not inherit from the thread that starts it
 * (see tsx-in-worker.mjs). Run from `dist/`, it loads the compiled `cpu-tasks.js` as it is.
 */
function workerEntry(): { filename: string; execArgv: string[] | undefined } {
  const fromSources = import.meta.url.endsWith('.ts');
  const filename = new URL(fromSources ? './cpu-tasks.ts' : './cpu-tasks.js', import.meta.url).href;
  if (!fromSources) return { filename, execArgv: undefined };
  return { filename, execArgv: ['--import', new URL('./tsx-in-worker.mjs', import.meta.url).href] };
}

/**
 * A copy of just these bytes in an ArrayBuffer of its own, to move to a worker. Not `.slice()`: on a Node Buffer
 * that is a view of the same memory, often Node's shared pool, which must never be moved (Node 24 refuses to:
 * DataCloneError) and whose other bytes belong to someone else.
 */
const ownCopy = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/**
 * Images of at most this many pixels (by their header) are decoded in the quick lane: about 60 ms for a 2048² PNG
 * here, so with one decode per key at a time (UPLOAD_DECODES_PER_KEY) the lane's queue stays short.
 */
export const QUICK_LANE_PIXELS = 2048 * 2048;

const FORMAT = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  webp: { contentType: 'image/webp', extension: 'webp' },
} as const;

/**
 * Threads start as tasks come (up to `threads` at once), so commands and tests that never render or decode start
 * none, and end after `idleTimeoutMs` without work, so a server that drew images an hour ago does not keep their memory.
 */
export function createCpuPool(options: CpuPoolOptions = {}): CpuPool {
  const threads = options.threads ?? defaultCpuThreads();
  const idleTimeout = options.idleTimeoutMs ?? CPU_IDLE_TIMEOUT_MS;
  let pool: Piscina | undefined;
  let quick: Piscina | undefined;
  let closed = false;

  const started = (): Piscina => {
    if (closed) throw new Error('the CPU pool is closed');
    const { filename, execArgv } = workerEntry();
    pool ??= new Piscina({ filename, execArgv, minThreads: 0, maxThreads: threads, idleTimeout });
    return pool;
  };
  // One thread of its own for small images' decodes: a 64x64 upload does not wait for a 50-megapixel decode of another
  // key to finish (on two cores the main lane has one thread). It starts with the first such decode, ends when idle.
  const quickLane = (): Piscina => {
    if (closed) throw new Error('the CPU pool is closed');
    const { filename, execArgv } = workerEntry();
    quick ??= new Piscina({ filename, execArgv, minThreads: 0, maxThreads: 1, idleTimeout });
    return quick;
  };

  // Each lane serves its tasks in arrival order, one per thread (see FifoLane).
  const lanes = { main: createFifoLane(started, threads), quick: createFifoLane(quickLane, 1) };

  function run(
    name: 'render' | 'edit' | 'base64' | 'encode' | 'verify' | 'inpaintMask',
    task: unknown,
    signal: AbortSignal | undefined,
    transferList?: TransferListItem[],
    lane: 'main' | 'quick' = 'main',
  ): Promise<unknown> {
    return lanes[lane].run({ name, task, transferList }, signal);
  }

  return {
    threads,
    async render(input, callOptions) {
      const signal = callOptions?.signal;
      return (await withStages(callOptions?.onStage, (stages) =>
        stages === undefined ? run('render', input, signal) : run('render', { ...input, stages }, signal, [stages]),
      )) as RenderOutput;
    },
    async edit(input, callOptions) {
      // Copies of just the image's and the mask's bytes are moved, as for encode: the caller keeps its buffers.
      const image = ownCopy(input.image);
      const mask = input.mask === undefined ? undefined : ownCopy(input.mask);
      const moved: TransferListItem[] = mask === undefined ? [image.buffer] : [image.buffer, mask.buffer];
      return (await withStages(callOptions?.onStage, (stages) =>
        run(
          'edit',
          { ...input, image, mask, ...(stages === undefined ? {} : { stages }) },
          callOptions?.signal,
          stages === undefined ? moved : [...moved, stages],
        ),
      )) as RenderOutput;
    },
    async inpaintMask(mask, callOptions): Promise<Uint8Array> {
      const copy = ownCopy(mask);
      return (await run('inpaintMask', copy, callOptions?.signal, [copy.buffer])) as Uint8Array;
    },
    async base64(bytes, callOptions): Promise<Uint8Array> {
      // A copy of just these bytes is moved to the worker: the caller keeps its buffer.
      const copy = ownCopy(bytes);
      return (await run('base64', copy, callOptions?.signal, [copy.buffer])) as Uint8Array;
    },
    async encode(bytes, { signal, ...options }): Promise<EncodedImage> {
      const copy = ownCopy(bytes);
      const output = (await run('encode', { bytes: copy, ...options }, signal, [copy.buffer])) as EncodeOutput;
      const format = output.bytes === undefined ? 'png' : options.format;
      const { thumbnails, thumbnailsFailed } = output;
      return {
        bytes: output.bytes ?? bytes,
        width: output.width,
        height: output.height,
        ...FORMAT[format],
        ...(thumbnails === undefined ? {} : { thumbnails }),
        ...(thumbnailsFailed === undefined ? {} : { thumbnailsFailed }),
      };
    },
    readsFiles: true,
    async verify(image, { signal, maxPixels, thumbnails, pixels }) {
      const lane = pixels !== undefined && pixels <= QUICK_LANE_PIXELS ? 'quick' : 'main';
      // A file is decoded where it lies: only its path crosses to the worker.
      if (!(image instanceof Uint8Array)) return (await run('verify', { path: image.path, maxPixels, thumbnails }, signal, undefined, lane)) as VerifiedImage;
      const copy = ownCopy(image);
      return (await run('verify', { bytes: copy, maxPixels, thumbnails }, signal, [copy.buffer], lane)) as VerifiedImage;
    },
    warm() {
      // Threads start on demand (minThreads 0, so an idle server lets them go): a no-op task starts one, and loading
      // sharp in it (about 150 ms of CPU) happens there, not in the first call that needs it.
      if (closed) return;
      started()
        .run(null, { name: 'warm' })
        .catch(() => undefined);
    },
    async close() {
      closed = true;
      const running = [pool, quick];
      pool = undefined;
      quick = undefined;
      await Promise.all(running.map((lane) => lane?.destroy()));
    },
  };
}

/**
 * Runs `task` with a port the worker posts the drawing's stages to (cpu-tasks.ts), handing each to `onStage`. Once the
 * task is done, the stages still queued on the port are read at once, so every stage is handed over before the
 * result: the port and piscina's own channel are not ordered with each other. Without `onStage`, no port.
 */
async function withStages<T>(onStage: OnRenderStage | undefined, task: (stages: MessagePort | undefined) => Promise<T>): Promise<T> {
  if (onStage === undefined) return task(undefined);
  const { port1: listening, port2: posting } = new MessageChannel();
  // A listener that throws must not become an uncaught exception of the port's event.
  const hand = (stage: RenderStage): void => {
    try {
      onStage(stage);
    } catch {
      // the listener's own failure; the drawing goes on
    }
  };
  listening.on('message', hand);
  try {
    const result = await task(posting);
    for (let queued = receiveMessageOnPort(listening); queued !== undefined; queued = receiveMessageOnPort(listening)) hand(queued.message as RenderStage);
    return result;
  } finally {
    listening.close();
  }
}
