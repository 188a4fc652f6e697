/**
 * The tasks of the CPU pool; this module runs inside its worker threads, never on the event loop.
 * Piscina calls the export named by `run(..., { name })`. Results carry their buffers as transfers,
 * so megabytes of PNG change threads without a copy.
 */
import { threadId, type MessagePort } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import sharp from 'sharp';
import { editProcedural, type EditInput } from '../providers/procedural/edit.js';
import { renderProcedural, type OnRenderStage, type RenderInput } from '../providers/procedural/render.js';
import { inpaintMaskFromAlpha } from '../providers/stability/inpaint-mask.js';
import type { EncodedThumbnail } from '../../ports/image-codec.js';
import { makeThumbnails, thumbnailBuffers } from './thumbnails.js';

export interface RenderOutput {
  png: Uint8Array;
  /** The thread that did the work, so tests can tell it was not the event loop's. */
  threadId: number;
}

// libvips' operation cache (by default up to 50 MB and 100 operations, for the whole process) can never hit here:
// every task brings bytes of its own. Off, so it holds no pixels between tasks.
sharp.cache(false);

/** Nothing: a task whose only effect is a started thread with this module (and sharp) loaded. */
export function warm(): number {
  return threadId;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The port a caller following the drawing gave (cpu-pool.ts withStages): each stage is posted to it as it starts. */
interface Staged {
  stages?: MessagePort;
}

const postingTo = (port: MessagePort | undefined): OnRenderStage | undefined => (port === undefined ? undefined : (stage) => port.postMessage(stage));

/** Draws the offline model's image and encodes it; deterministic, as libvips' PNG encoder is for equal pixels. */
export async function render({ stages, ...input }: RenderInput & Staged): Promise<unknown> {
  const image = renderProcedural(input, postingTo(stages));
  const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .png({ compressionLevel: 6 })
    .toBuffer();
  const own = ownBuffer(png);
  return transfer<RenderOutput>({ png: own, threadId }, [own.buffer]);
}

/** The offline model's edit of `images[0]` (see editProcedural), encoded as `render` encodes, with the alpha kept. */
export async function edit({ stages, ...input }: EditInput & Staged): Promise<unknown> {
  const image = await editProcedural(input, postingTo(stages));
  const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .png({ compressionLevel: 6 })
    .toBuffer();
  const own = ownBuffer(png);
  return transfer<RenderOutput>({ png: own, threadId }, [own.buffer]);
}

export interface EncodeTask {
  bytes: Uint8Array;
  format: 'png' | 'jpeg' | 'webp';
  compression?: number;
  opaque?: boolean;
  maxSide?: number;
  /** Long sides of WebP thumbnails to make as well (ImageCodec's ThumbnailOptions). */
  thumbnails?: readonly number[];
}

export interface EncodeOutput {
  /** Absent when the input was kept as it is (a PNG asked for as PNG, nothing to flatten or shrink). */
  bytes?: Uint8Array;
  /** The size of what was returned: the input's, or smaller with `maxSide`. */
  width: number;
  height: number;
  thumbnails?: EncodedThumbnail[];
  thumbnailsFailed?: string;
  threadId: number;
}

/** What `ImageCodec.encode` does. OpenAI's `output_compression` 0..100 is the encoder's quality here (100 = least loss). */
export async function encode(task: EncodeTask): Promise<unknown> {
  const isPng = PNG_SIGNATURE.every((byte, index) => task.bytes[index] === byte);
  let image = sharp(task.bytes, { failOn: 'error' });
  const meta = await image.metadata();
  if (meta.width === undefined || meta.height === undefined) throw new Error('the image has no dimensions');
  const flatten = task.opaque === true || task.format === 'jpeg';
  const shrink = task.maxSide !== undefined && Math.max(meta.width, meta.height) > task.maxSide;
  const thumbnails = await thumbnailsOf(task, flatten && meta.hasAlpha === true);
  if (task.format === 'png' && isPng && !shrink && !(flatten && meta.hasAlpha === true)) {
    return transfer<EncodeOutput>({ width: meta.width, height: meta.height, ...thumbnails, threadId }, thumbnailBuffers(thumbnails.thumbnails));
  }
  if (shrink) image = image.resize({ width: task.maxSide, height: task.maxSide, fit: 'inside', withoutEnlargement: true });
  if (flatten) image = image.flatten({ background: '#ffffff' });
  const quality = task.compression === undefined ? undefined : Math.max(1, Math.min(100, Math.round(task.compression)));
  if (task.format === 'png') image = image.png({ compressionLevel: 6 });
  else if (task.format === 'jpeg') image = image.jpeg(quality === undefined ? {} : { quality });
  else image = image.webp(quality === undefined ? {} : { quality });
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  const bytes = ownBuffer(data);
  return transfer<EncodeOutput>({ bytes, width: info.width, height: info.height, ...thumbnails, threadId }, [
    bytes.buffer,
    ...thumbnailBuffers(thumbnails.thumbnails),
  ]);
}

/**
 * The thumbnails an encode was asked for, from the input as it will be stored (flattened when it will be). Failing
 * to make them does not fail the encode: a PNG kept as it is was never decoded, and a provider's image that was paid
 * for is still stored, shown from its original; the reason goes back to be logged.
 */
async function thumbnailsOf(task: EncodeTask, flatten: boolean): Promise<Pick<EncodeOutput, 'thumbnails' | 'thumbnailsFailed'>> {
  if (task.thumbnails === undefined || task.thumbnails.length === 0) return {};
  try {
    return { thumbnails: await makeThumbnails(task.bytes, task.thumbnails, { flatten }) };
  } catch (error) {
    return { thumbnailsFailed: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What `ImageCodec.verify` does: decodes every pixel (stats reads them all, without holding the raw image). Asked for
 * thumbnails, it decodes once to make them instead, which reads every pixel just the same (see makeThumbnails).
 */
export async function verify(task: { bytes?: Uint8Array; path?: string; maxPixels: number; thumbnails?: readonly number[] }): Promise<unknown> {
  // From a file, libvips reads it a few rows at a time (sequential access): a 50 MB upload's decode holds a strip of
  // pixels, not the file and its pixels. Bytes are decoded as they came.
  const input = task.path ?? task.bytes;
  if (input === undefined) throw new Error('nothing to verify');
  const access = task.path === undefined ? {} : { sequentialRead: true };
  const image = sharp(input, { failOn: 'error', limitInputPixels: task.maxPixels, ...access });
  const meta = await image.metadata();
  if (meta.width === undefined || meta.height === undefined) throw new Error('the image has no dimensions');
  if (task.thumbnails !== undefined && task.thumbnails.length > 0) {
    const thumbnails = await makeThumbnails(input, task.thumbnails, { maxPixels: task.maxPixels, sequential: task.path !== undefined });
    return transfer({ width: meta.width, height: meta.height, thumbnails }, thumbnailBuffers(thumbnails));
  }
  await image.stats();
  return { width: meta.width, height: meta.height };
}

/**
 * What `CpuPool.inpaintMask` does: a transparent-means-change mask (PNG or WebP) as a one-channel greyscale PNG in
 * which white means change (inpaintMaskFromAlpha). `ensureAlpha` gives a mask without alpha an opaque one: keep all.
 */
export async function inpaintMask(bytes: Uint8Array): Promise<unknown> {
  const { data, info } = await sharp(bytes, { failOn: 'error' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const grey = inpaintMaskFromAlpha(data, info.channels);
  // `b-w` keeps it one channel: sharp would otherwise write the grey as RGB.
  const png = ownBuffer(
    await sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } })
      .toColourspace('b-w')
      .png({ compressionLevel: 6 })
      .toBuffer(),
  );
  return transfer<Uint8Array>(png, [png.buffer]);
}

/** What `ImageCodec.base64` does: the base64 text of the bytes, as ASCII bytes moved back without a copy. */
export function base64(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  const ascii = ownBuffer(Buffer.from(text, 'latin1'));
  return transfer<Uint8Array>(ascii, [ascii.buffer]);
}

/**
 * The bytes in a plain ArrayBuffer of their own, which a transfer can move. Always a copy (one memcpy of the
 * encoded file): sharp's buffers point at memory libvips allocated, which Node 24 refuses to transfer
 * (DataCloneError), and a Buffer may be a slice of Node's shared pool, whose other bytes are not ours to move.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

/** Piscina moves any value marked with its transferable symbols, so an object can carry its buffers along. */
function transfer<T extends object>(value: T, buffers: ArrayBuffer[]): unknown {
  return move({ [transferableSymbol]: buffers, [valueSymbol]: value });
}
