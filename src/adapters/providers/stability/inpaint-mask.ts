/**
 * imagegate's masks follow OpenAI: a fully transparent pixel marks the area to change, an opaque one is kept.
 * Stability's inpaint `mask` is read the other way, by brightness: "Completely black pixels represent no inpainting
 * strength while completely white pixels represent maximum strength" (v2beta /stable-image/edit/inpaint, `mask`).
 * So the grey level Stability needs is the mask's transparency: 255 - alpha. A half-transparent pixel becomes
 * mid-grey, half strength, which is what a soft edge means in both.
 *
 * Pure and allocation-light, for the CPU pool's worker (the decoding and encoding around it is sharp's, off the
 * event loop); `pixels` is interleaved 8-bit samples, `channels` per pixel with alpha last (2 or 4).
 */
export function inpaintMaskFromAlpha(pixels: Uint8Array, channels: number): Uint8Array {
  if (channels !== 2 && channels !== 4) throw new Error(`a mask needs an alpha channel (got ${channels} channels per pixel)`);
  const grey = new Uint8Array(pixels.length / channels);
  for (let i = 0, at = channels - 1; i < grey.length; i += 1, at += channels) grey[i] = 255 - (pixels[at] ?? 255);
  return grey;
}
