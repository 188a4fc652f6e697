import sharp, { type Sharp } from 'sharp';

/**
 * Files the fuzzer sends in multipart forms, by name: a few small real images (made with sharp once per test
 * process) and files that only look like images, or not even that. Requests name them, so a report stays short.
 */
export type SampleName =
  | 'png'
  | 'png-alpha'
  | 'jpeg'
  | 'webp'
  | 'png-wide'
  | 'empty'
  | 'text'
  | 'gif'
  | 'svg'
  | 'png-header-huge'
  | 'png-header-side'
  | 'png-header-pixels'
  | 'png-header-zero'
  | 'png-truncated'
  | 'jpeg-truncated'
  | 'webp-truncated';

export interface SampleInfo {
  name: SampleName;
  /** Whether it is a whole PNG, JPEG or WebP the service must take in. */
  image: boolean;
  /** What it is, for reports. */
  label: string;
  /** The Content-Type a browser would give the file. */
  type: string;
  extension: string;
}

const info = (name: SampleName, image: boolean, label: string, type = 'image/png', extension = 'png'): SampleInfo => ({ name, image, label, type, extension });

export const SAMPLES: Record<SampleName, SampleInfo> = {
  png: info('png', true, 'a 16x16 PNG'),
  'png-alpha': info('png-alpha', true, 'a 16x16 PNG with a transparent hole (a mask)'),
  jpeg: info('jpeg', true, 'a 16x16 JPEG', 'image/jpeg', 'jpg'),
  webp: info('webp', true, 'a 16x16 WebP', 'image/webp', 'webp'),
  'png-wide': info('png-wide', true, 'a 24x12 PNG'),
  empty: info('empty', false, 'an empty file'),
  text: info('text', false, 'a text file', 'text/plain', 'txt'),
  gif: info('gif', false, 'a GIF header', 'image/gif', 'gif'),
  svg: info('svg', false, 'an SVG', 'image/svg+xml', 'svg'),
  'png-header-huge': info('png-header-huge', false, 'a PNG header claiming 100000x100000 pixels'),
  'png-header-side': info('png-header-side', false, 'a PNG header claiming 16385x1 pixels'),
  'png-header-pixels': info('png-header-pixels', false, 'a PNG header claiming 8193x8193 pixels'),
  'png-header-zero': info('png-header-zero', false, 'a PNG header claiming 0x16 pixels'),
  'png-truncated': info('png-truncated', false, 'a PNG cut in half'),
  'jpeg-truncated': info('jpeg-truncated', false, 'a JPEG cut in half', 'image/jpeg', 'jpg'),
  'webp-truncated': info('webp-truncated', false, 'a WebP cut in half', 'image/webp', 'webp'),
};

export const IMAGE_SAMPLES = Object.values(SAMPLES)
  .filter((s) => s.image)
  .map((s) => s.name);
export const NOT_IMAGE_SAMPLES = Object.values(SAMPLES)
  .filter((s) => !s.image)
  .map((s) => s.name);

/** Bytes over a plain ArrayBuffer, as request bodies and Blobs take them. */
export type Bytes = Uint8Array<ArrayBuffer>;

export type Samples = Readonly<Record<SampleName, Bytes>>;

/** A gradient with distinct pixels, `hole` made fully transparent (OpenAI's mask: transparent = change). */
function rgba(width: number, height: number, hole = false): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      data.set([(x * 255) / (width - 1), (y * 255) / (height - 1), (x * 7 + y * 13) % 256, hole && x >= 4 && x < 12 && y >= 4 && y < 12 ? 0 : 255], at);
    }
  }
  return data;
}

/** A PNG signature and IHDR claiming a size, and nothing else: what a decompression bomb's header looks like. */
function pngHeaderClaiming(width: number, height: number): Bytes {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

async function make(): Promise<Samples> {
  const image = (width: number, height: number, hole = false) => sharp(rgba(width, height, hole), { raw: { width, height, channels: 4 } });
  const bytes = async (pipeline: Sharp): Promise<Bytes> => new Uint8Array(await pipeline.toBuffer());
  const png = await bytes(image(16, 16).png());
  const jpeg = await bytes(image(16, 16).jpeg());
  const webp = await bytes(image(16, 16).webp());
  const half = (file: Bytes): Bytes => file.slice(0, file.length >> 1);
  const text = (value: string): Bytes => new Uint8Array(Buffer.from(value, 'utf8'));
  return {
    png,
    'png-alpha': await bytes(image(16, 16, true).png()),
    jpeg,
    webp,
    'png-wide': await bytes(image(24, 12).png()),
    empty: new Uint8Array(0),
    text: text('hello, this is not an image\n'),
    gif: text('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;'),
    svg: text('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>'),
    'png-header-huge': pngHeaderClaiming(100_000, 100_000),
    'png-header-side': pngHeaderClaiming(16_385, 1),
    'png-header-pixels': pngHeaderClaiming(8193, 8193),
    'png-header-zero': pngHeaderClaiming(0, 16),
    'png-truncated': half(png),
    'jpeg-truncated': half(jpeg),
    'webp-truncated': half(webp),
  };
}

let made: Promise<Samples> | undefined;

/** The sample files, made on first use and shared by every run of the process. */
export const samples = (): Promise<Samples> => (made ??= make());

/** A zero-filled file of `size` bytes (over the 50 MB the document states), made only when a request sends one. */
export const zeros = (size: number): Bytes => new Uint8Array(size);
