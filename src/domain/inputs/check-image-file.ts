import type { ImageCodec, ImageFileRef, VerifiedImage } from '../../ports/image-codec.js';
import { ApiError, invalidParameter } from '../errors.js';
import { decodeFailure } from './decode-failure-messages.js';
import { readImageHeader, type ImageHeader } from './image-header.js';
import { MAX_INPUT_PIXELS, MAX_INPUT_SIDE, MAX_UPLOAD_BYTES } from './input-limits.js';

/**
 * What the header says about a file given as an image, checked before anything decodes it: a PNG, JPEG or WebP,
 * with a size the service will decode. `field` names the request field in the error (`file`, `image[1]`, `mask`).
 */
export function checkImageFile(bytes: Uint8Array, field: string): ImageHeader {
  return checkImageHeader(bytes, bytes.byteLength, field);
}

/** checkImageFile for a file of `size` bytes of which `head` are the first (a staged upload, not read into memory). */
export function checkImageHeader(head: Uint8Array, size: number, field: string): ImageHeader {
  const bytes = head;
  if (size === 0) throw invalidParameter(field, `${field} is empty: send a PNG, JPEG or WebP image`);
  if (size > MAX_UPLOAD_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', 'Image too large', {
      field,
      max_bytes: MAX_UPLOAD_BYTES,
      message: `${field} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB: send a smaller image`,
    });
  }
  const header = readImageHeader(bytes);
  if (header === undefined)
    throw invalidParameter(field, `${field} is not a PNG, JPEG or WebP image: send one of those (GIF, SVG, HEIC and other files are not taken)`);
  const { width, height } = header;
  if (width === 0 || height === 0) throw invalidParameter(field, `${field} says it is ${width}x${height} pixels: send an image with a size`);
  if (width > MAX_INPUT_SIDE || height > MAX_INPUT_SIDE || width * height > MAX_INPUT_PIXELS) {
    throw invalidParameter(
      field,
      `${field} says it is ${width}x${height} pixels; images in are limited to ${MAX_INPUT_SIDE} pixels a side and ${MAX_INPUT_PIXELS.toLocaleString('en-US')} pixels in all: scale it down first`,
    );
  }
  return header;
}

const TYPE_NAMES = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' } as const;

/**
 * Decodes the whole file in the CPU pool (never on the event loop), within the pixel limit: a file whose header
 * is fine but whose data is cut short or corrupt is refused here, not at a paid provider. With `thumbnails`, the
 * same decode makes them (for a file about to be stored in the gallery).
 */
export async function verifyImageFile(
  codec: Pick<ImageCodec, 'verify' | 'inputFormats'>,
  image: Uint8Array | (ImageFileRef & { head: Uint8Array }),
  field: string,
  signal?: AbortSignal,
  thumbnails?: readonly number[],
): Promise<VerifiedImage> {
  const header = readImageHeader(image instanceof Uint8Array ? image : image.head);
  const type = header?.contentType;
  if (type !== undefined && codec.inputFormats !== undefined && !codec.inputFormats.includes(type)) {
    const readable = codec.inputFormats.map((format) => TYPE_NAMES[format]).join(' or ');
    throw invalidParameter(field, `${field} is a ${TYPE_NAMES[type]}, and this server decodes ${readable} images only: send it as ${readable}`);
  }
  try {
    return await codec.verify(image instanceof Uint8Array ? image : { path: image.path }, {
      maxPixels: MAX_INPUT_PIXELS,
      signal,
      ...(header === undefined ? {} : { pixels: header.width * header.height }),
      ...(thumbnails === undefined ? {} : { thumbnails }),
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw decodeFailure(field, type, image instanceof Uint8Array ? image : undefined, error);
  }
}
