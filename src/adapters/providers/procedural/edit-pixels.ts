import { renderPixels, type OnRenderStage, type RenderInput } from './render-pixels.js';

/**
 * An honest, non-AI edit by the offline model: the procedural picture for the prompt and seed, laid over the
 * caller's image. `width` and `height` are the output's size; the domain sets them to the input's size when the
 * caller gave none.
 */
export interface EditInput extends RenderInput {
  /** The image to edit (PNG, JPEG or WebP), `images[0]` of the request. */
  image: Uint8Array;
  /** OpenAI's semantics: a fully transparent pixel is the area to change, any other is kept. Same size as `image`. */
  mask?: Uint8Array;
  /** 0..1, how much of the rendered picture goes into the changed pixels (1 = only the render). */
  strength?: number;
  /** Refuses a larger input before decoding it; by default the renderer's own ceiling. */
  maxInputPixels?: number;
}

/** 8-bit RGBA, row by row, in a plain Uint8Array (no Node APIs: this runs on Workers too). */
export interface RgbaPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 4;
}

/** Image-to-image without a mask keeps this much of the input's composition visible by default. */
export const DEFAULT_STRENGTH = 0.6;
/** With a mask the edit area is replaced outright by default, as inpainting does. */
export const DEFAULT_MASKED_STRENGTH = 1;
/** The same runaway guard as the renderer's longest side (8192), squared. */
export const MAX_INPUT_PIXELS = 8192 * 8192;

/**
 * The pixel half of the edit, apart from decoding so that each runtime decodes with what it has (sharp on Node,
 * a JS PNG decoder on Workers): `picture` and `mask` are already 8-bit sRGB RGBA at the output's size.
 * Renders at that size and blends. Deterministic for equal inputs.
 */
export function editPixels(input: EditInput, picture: Uint8Array, mask: Uint8Array | undefined, onStage?: OnRenderStage): RgbaPixels {
  const { width, height } = input;
  const render = renderPixels(input, onStage);
  const strength = clampStrength(input.strength ?? (mask === undefined ? DEFAULT_STRENGTH : DEFAULT_MASKED_STRENGTH));
  return { data: blendPixels(picture, render.data, mask, strength), width, height, channels: 4 };
}

/**
 * Per pixel: `out = input * (1 - s) + render * s`, the render being opaque. With a mask only the pixels whose mask
 * alpha is 0 are blended; every other pixel is copied, all four bytes, so it stays byte-identical to the input.
 * s = 0 gives the input's bytes and s = 1 the render's exactly (integer values times 0 and 1 are exact in floats).
 */
export function blendPixels(picture: Uint8Array, render: Uint8Array, mask: Uint8Array | undefined, strength: number): Uint8Array {
  const pixels = picture.length / 4;
  if (render.length !== pixels * 3) throw new RangeError('the render and the input differ in size');
  if (mask !== undefined && mask.length !== picture.length) throw new RangeError('the mask and the input differ in size');
  const out = new Uint8Array(picture);
  const keep = 1 - strength;
  for (let p = 0; p < pixels; p++) {
    const i = p * 4;
    if (mask !== undefined && mask[i + 3] !== 0) continue;
    const r = p * 3;
    out[i] = Math.round((picture[i] ?? 0) * keep + (render[r] ?? 0) * strength);
    out[i + 1] = Math.round((picture[i + 1] ?? 0) * keep + (render[r + 1] ?? 0) * strength);
    out[i + 2] = Math.round((picture[i + 2] ?? 0) * keep + (render[r + 2] ?? 0) * strength);
    out[i + 3] = Math.round((picture[i + 3] ?? 0) * keep + 255 * strength);
  }
  return out;
}

/** Out-of-range strengths are the domain's to refuse; here they only must not produce bytes outside 0..255. */
function clampStrength(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : DEFAULT_STRENGTH;
}
