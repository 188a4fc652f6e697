import sharp from 'sharp';

/** Small but real images, so fakes answer genuine PNG, JPEG and WebP bytes. */
export async function sampleImages(width = 80, height = 48): Promise<{ png: Buffer; jpeg: Buffer; webp: Buffer }> {
  const pixels = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 20 } } });
  const [png, jpeg, webp] = await Promise.all([pixels.clone().png().toBuffer(), pixels.clone().jpeg().toBuffer(), pixels.clone().webp().toBuffer()]);
  return { png, jpeg, webp };
}
