/**
 * The CPU pool's image work (see cpu-pool.ts) for runtimes without sharp, worker threads or `node:*`: Cloudflare
 * Workers. Everything runs inline on the request's own thread, in plain JavaScript: the offline model draws as on
 * Node (render-pixels.ts) and PNG is read and written by fast-png. PNG only: JPEG and WebP have no decoder or encoder
 * here, so such inputs and outputs reject with a message saying so, and no WebP thumbnails are made.
 *
 * CPU time of `render` measured on the machine that wrote this (Node 20, one core of a shared 2-core box, default
 * zlib level 3; a Worker runs the same V8): 512x512 in about 60 ms, 1024x1024 in about 180 ms, 2048x2048 in about
 * 690 ms, two thirds of it the PNG encode (the drawing alone: about 20, 65 and 225 ms). At level 6: about 60, 245 and
 * 1,030 ms for files 3 to 6% smaller. Workers' default CPU limit is 30 s per request on paid plans, so every size of
 * the catalogue (up to 2048x2048) fits with room to spare; the free plan's 10 ms fits none, not even 512x512.
 */
import { inpaintMaskFromAlpha } from '../providers/stability/inpaint-mask.js';
import { editPixels, MAX_INPUT_PIXELS, type EditInput } from '../providers/procedural/edit-pixels.js';
import { renderPixels, type RenderInput } from '../providers/procedural/render-pixels.js';
import type { CodecCallOptions, EncodedImage, ImageCodec } from '../../ports/image-codec.js';
import type { CpuPool, RenderCallOptions } from '../cpu/cpu-pool.js';
import type { RenderOutput } from '../cpu/cpu-tasks.js';
import { base64Ascii } from './base64.js';
import { decodePngRgba, encodePng, readPngHeader, type RgbaImage, type ZlibLevel } from './png.js';
import { dropAlpha, fitInside, flattenOnWhite, resizeRgba, resizeRgbaNearest } from './resample.js';

export { PNG_INPUT_ONLY } from './png.js';

/** Said when a JPEG or WebP is asked for: the caller answers it as the client's mistake (4xx), in these words. */
export const PNG_OUTPUT_ONLY = 'this runtime stores PNG images only: JPEG and WebP output need the Node runtime';
/** Why `thumbnails` are missing from an encode that asked for them; the image is stored all the same. */
export const NO_THUMBNAILS = 'thumbnails are not made on this runtime (it has no WebP encoder); the gallery shows the original';

export type InlineImageWork = Pick<CpuPool, 'render' | 'edit' | 'inpaintMask' | 'threads'> & ImageCodec;

export interface InlineImageWorkOptions {
  /**
   * zlib level of the PNGs written (0..9), 3 by default: CPU time is what a Worker runs short of, and level 6 (the
   * pool's) costs about 50% more of it at 2048x2048 for files only 6% smaller. fast-png writes rows unfiltered, so
   * its files are larger than libvips' either way.
   */
  compressionLevel?: ZlibLevel;
}

/** No worker thread does the work: the id Node gives its main thread, which is what runs it there. */
const INLINE_THREAD_ID = 0;

export function createInlineImageWork(options: InlineImageWorkOptions = {}): InlineImageWork {
  const level = options.compressionLevel ?? 3;
  // Work starts synchronously inside async functions, so a throw (abort included) is a rejection, as from the pool.
  const start = (callOptions: CodecCallOptions | undefined): void => callOptions?.signal?.throwIfAborted();

  return {
    threads: 0,
    outputFormats: ['png'],
    inputFormats: ['image/png'],
    makesThumbnails: false,
    async render(input: RenderInput, callOptions?: RenderCallOptions): Promise<RenderOutput> {
      start(callOptions);
      const image = renderPixels(input, callOptions?.onStage);
      return { png: encodePng(image.data, image.width, image.height, image.channels, level), threadId: INLINE_THREAD_ID };
    },
    async edit(input: EditInput, callOptions?: RenderCallOptions): Promise<RenderOutput> {
      start(callOptions);
      const limit = input.maxInputPixels ?? MAX_INPUT_PIXELS;
      const picture = atSize(decodePngRgba(input.image, limit), input.width, input.height, resizeRgba);
      const mask = input.mask === undefined ? undefined : atSize(decodePngRgba(input.mask, limit), input.width, input.height, resizeRgbaNearest);
      const edited = editPixels(input, picture, mask, callOptions?.onStage);
      return { png: encodePng(edited.data, edited.width, edited.height, 4, level), threadId: INLINE_THREAD_ID };
    },
    async inpaintMask(mask: Uint8Array, callOptions?: CodecCallOptions): Promise<Uint8Array> {
      start(callOptions);
      const image = decodePngRgba(mask);
      return encodePng(inpaintMaskFromAlpha(image.data, 4), image.width, image.height, 1, level);
    },
    async base64(bytes, callOptions) {
      start(callOptions);
      return base64Ascii(bytes);
    },
    async encode(bytes, { signal, format, opaque, maxSide, thumbnails }): Promise<EncodedImage> {
      start({ signal });
      if (format !== 'png') throw new Error(PNG_OUTPUT_ONLY);
      const header = readPngHeader(bytes);
      const asked = thumbnails !== undefined && thumbnails.length > 0 ? { thumbnailsFailed: NO_THUMBNAILS } : {};
      const flatten = opaque === true && header.hasAlpha;
      const size = maxSide === undefined ? header : fitInside(header.width, header.height, maxSide);
      const shrink = size.width !== header.width || size.height !== header.height;
      // As the pool: a PNG with nothing to flatten or shrink is kept byte for byte, without decoding it.
      if (!flatten && !shrink) return { bytes, contentType: 'image/png', extension: 'png', width: header.width, height: header.height, ...asked };
      const decoded = decodePngRgba(bytes);
      const rgba = shrink ? resizeRgba(decoded.data, decoded.width, decoded.height, size.width, size.height) : decoded.data;
      const png =
        flatten || !decoded.hasAlpha
          ? encodePng(flatten ? flattenOnWhite(rgba) : dropAlpha(rgba), size.width, size.height, 3, level)
          : encodePng(rgba, size.width, size.height, 4, level);
      return { bytes: png, contentType: 'image/png', extension: 'png', width: size.width, height: size.height, ...asked };
    },
    async verify(image, { signal, maxPixels }) {
      start({ signal });
      // Without a file system there are no staged files: callers pass bytes (readsFiles is not set).
      if (!(image instanceof Uint8Array)) throw new Error('this image codec decodes bytes, not files');
      const bytes = image;
      // decodePngRgba reads the header and refuses more than maxPixels before inflating a byte. Thumbnails asked
      // for are not made (VerifiedImage leaves them out): the image is verified all the same.
      const { width, height } = decodePngRgba(bytes, maxPixels);
      return { width, height };
    },
  };
}

type Resize = (data: Uint8Array, width: number, height: number, toWidth: number, toHeight: number) => Uint8Array;

/** The pixels at the edit's output size: stretched (nothing cropped) when the input's size differs. */
function atSize(image: RgbaImage, width: number, height: number, resize: Resize): Uint8Array {
  if (image.width === width && image.height === height) return image.data;
  return resize(image.data, image.width, image.height, width, height);
}
