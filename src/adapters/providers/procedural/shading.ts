import { clamp } from './noise.js';

/**
 * How much a ridge faces the sun, per column, at increasing scales. Level 0 follows every jag of the crest;
 * each further level averages the ridge line over twice the width. Painting deeper rows from coarser levels
 * makes faces broaden downhill instead of streaking straight down in thin columns.
 */
export function facingLevels(top: Float32Array, height: number, sunSide: number, levels: number): Float32Array[] {
  const width = top.length;
  const out: Float32Array[] = [];
  for (let level = 0; level < levels; level++) {
    const radius = level === 0 ? 0 : Math.max(1, Math.round(height * 0.012 * 2 ** (level - 1)));
    const line = radius === 0 ? top : boxBlur(top, radius);
    const step = Math.max(1, radius, Math.round(height * 0.004));
    const facing = new Float32Array(width);
    for (let x = 0; x < width; x++) {
      const left = line[Math.max(0, x - step)] ?? 0;
      const right = line[Math.min(width - 1, x + step)] ?? 0;
      // Rows grow downward, so a ridge rising to the right (left > right) faces left.
      facing[x] = clamp(((left - right) / (2 * step)) * sunSide * 1.5, -1, 1);
    }
    out.push(facing);
  }
  return out;
}

/** Moving average over 2 * radius + 1 columns (edges clamp). */
export function boxBlur(line: Float32Array, radius: number): Float32Array {
  const n = line.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = (prefix[i] ?? 0) + (line[i] ?? 0);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - radius);
    const hi = Math.min(n, i + radius + 1);
    out[i] = ((prefix[hi] ?? 0) - (prefix[lo] ?? 0)) / (hi - lo);
  }
  return out;
}
