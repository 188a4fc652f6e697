import sharp from 'sharp';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface SampleImages {
  png: Buffer;
  jpeg: Buffer;
  webp: Buffer;
}

export const MIME: Readonly<Record<ImageFormat, string>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** Small but real images, so fakes answer genuine PNG, JPEG and WebP bytes. */
export async function sampleImages(width = 80, height = 48): Promise<SampleImages> {
  const pixels = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 20 } } });
  const [png, jpeg, webp] = await Promise.all([pixels.clone().png().toBuffer(), pixels.clone().jpeg().toBuffer(), pixels.clone().webp().toBuffer()]);
  return { png, jpeg, webp };
}

/**
 * An RGBA PNG mask in imagegate's (and OpenAI's) semantics: the left half fully transparent (to change), the right
 * half opaque black (to keep).
 */
export async function sampleMask(width = 80, height = 48): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) pixels[(y * width + x) * 4 + 3] = x < width / 2 ? 0 : 255;
  }
  return sharp(pixels, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** What a fake started for the shared suite gives back. */
export interface StartedFake {
  baseUrl: string;
  /** Paid jobs the fake accepted (predictions, queue requests, prompts), for providers that bill per job. */
  creations?: () => number;
  close(): Promise<void>;
}

/** Options every fake takes: `answer` makes it answer in that format whatever the request asked for. */
export interface FakeOptions {
  answer?: ImageFormat;
}
