/**
 * Resizing 8-bit RGBA in plain JavaScript, for runtimes without sharp. Not libvips' kernels (lanczos3): an area
 * average, which is exact enough for previews and stretched edit inputs and cheap in CPU time.
 */

/** For each output index along one axis, the source indices it covers and how much of each (summing to 1). */
interface AxisWeights {
  first: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  stride: number;
}

/**
 * Each output pixel covers `from / to` source pixels (less than one when enlarging, so a source pixel is then
 * stretched over several, blended only at the edges).
 */
function axisWeights(from: number, to: number): AxisWeights {
  const scale = from / to;
  const stride = Math.ceil(scale) + 1;
  const first = new Int32Array(to);
  const count = new Int32Array(to);
  const weights = new Float32Array(to * stride);
  for (let o = 0; o < to; o++) {
    const start = o * scale;
    const end = Math.min(from, (o + 1) * scale);
    const s0 = Math.floor(start);
    first[o] = s0;
    let n = 0;
    for (let s = s0; s < end && n < stride; s++, n++) weights[o * stride + n] = (Math.min(end, s + 1) - Math.max(start, s)) / scale;
    count[o] = n;
  }
  return { first, count, weights, stride };
}

/**
 * Area-average resize of RGBA, weighting colour by alpha (premultiplied) so that the colour of transparent pixels,
 * which is arbitrary, does not bleed into the visible ones: what sharp does for images with alpha.
 */
export function resizeRgba(data: Uint8Array, width: number, height: number, toWidth: number, toHeight: number): Uint8Array {
  const xs = axisWeights(width, toWidth);
  const ys = axisWeights(height, toHeight);
  // Horizontal pass into premultiplied floats, `height` rows of `toWidth`.
  const rows = new Float32Array(toWidth * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < toWidth; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      const s0 = xs.first[x] ?? 0;
      const n = xs.count[x] ?? 0;
      for (let k = 0; k < n; k++) {
        const w = xs.weights[x * xs.stride + k] ?? 0;
        const i = (y * width + s0 + k) * 4;
        const alpha = (data[i + 3] ?? 0) * w;
        r += (data[i] ?? 0) * alpha;
        g += (data[i + 1] ?? 0) * alpha;
        b += (data[i + 2] ?? 0) * alpha;
        a += alpha;
      }
      const o = (y * toWidth + x) * 4;
      rows[o] = r;
      rows[o + 1] = g;
      rows[o + 2] = b;
      rows[o + 3] = a;
    }
  }
  const out = new Uint8Array(toWidth * toHeight * 4);
  for (let y = 0; y < toHeight; y++) {
    const s0 = ys.first[y] ?? 0;
    const n = ys.count[y] ?? 0;
    for (let x = 0; x < toWidth; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let k = 0; k < n; k++) {
        const w = ys.weights[y * ys.stride + k] ?? 0;
        const i = ((s0 + k) * toWidth + x) * 4;
        r += (rows[i] ?? 0) * w;
        g += (rows[i + 1] ?? 0) * w;
        b += (rows[i + 2] ?? 0) * w;
        a += (rows[i + 3] ?? 0) * w;
      }
      const o = (y * toWidth + x) * 4;
      // Un-premultiply; a fully transparent pixel keeps colour 0 (its colour does not show).
      out[o] = a > 0 ? Math.round(r / a) : 0;
      out[o + 1] = a > 0 ? Math.round(g / a) : 0;
      out[o + 2] = a > 0 ? Math.round(b / a) : 0;
      out[o + 3] = Math.round(a);
    }
  }
  return out;
}

/**
 * Nearest-neighbour resize of RGBA (each output pixel takes the source pixel under its centre), for masks: it
 * makes no new alpha values, so no pixel becomes "transparent, change it" that was not.
 */
export function resizeRgbaNearest(data: Uint8Array, width: number, height: number, toWidth: number, toHeight: number): Uint8Array {
  const out = new Uint8Array(toWidth * toHeight * 4);
  for (let y = 0; y < toHeight; y++) {
    const sy = Math.min(height - 1, Math.floor(((y + 0.5) * height) / toHeight));
    for (let x = 0; x < toWidth; x++) {
      const sx = Math.min(width - 1, Math.floor(((x + 0.5) * width) / toWidth));
      out.set(data.subarray((sy * width + sx) * 4, (sy * width + sx) * 4 + 4), (y * toWidth + x) * 4);
    }
  }
  return out;
}

/** The size that fits `maxSide` on the long side, keeping the aspect ratio; never larger than the image. */
export function fitInside(width: number, height: number, maxSide: number): { width: number; height: number } {
  const long = Math.max(width, height);
  if (long <= maxSide) return { width, height };
  const scale = Math.max(1, Math.floor(maxSide)) / long;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Transparency flattened onto white, RGB out: the pixels of sharp's `flatten({ background: '#ffffff' })`, which
 * truncates `(colour * alpha + 255 * (255 - alpha)) / 255` to an integer rather than rounding it.
 */
export function flattenOnWhite(data: Uint8Array): Uint8Array {
  const pixels = data.length / 4;
  const out = new Uint8Array(pixels * 3);
  for (let p = 0; p < pixels; p++) {
    const a = data[p * 4 + 3] ?? 255;
    for (let c = 0; c < 3; c++) out[p * 3 + c] = Math.floor(((data[p * 4 + c] ?? 0) * a + 255 * (255 - a)) / 255);
  }
  return out;
}

/** The alpha dropped (an image without transparency stored as RGB, as it came). */
export function dropAlpha(data: Uint8Array): Uint8Array {
  const pixels = data.length / 4;
  const out = new Uint8Array(pixels * 3);
  for (let p = 0; p < pixels; p++) out.set(data.subarray(p * 4, p * 4 + 3), p * 3);
  return out;
}
