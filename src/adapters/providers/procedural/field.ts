/**
 * Smooth noise fields (clouds, nebulae, ripples) carry no detail finer than about 1/100 of the image height,
 * so on big images they are evaluated on a coarser grid and bilinearly filled in: same look, a fraction of the cost.
 */
export function fieldStep(height: number): number {
  return Math.max(1, Math.round(height / 300));
}

/** Values of `fn` for rows `top` (inclusive) to `bottom` (exclusive), row-major, `width` per row. */
export function sampleField(width: number, top: number, bottom: number, step: number, fn: (x: number, y: number) => number): Float32Array {
  const rows = Math.max(0, bottom - top);
  const out = new Float32Array(width * rows);
  if (rows === 0) return out;
  if (step === 1) {
    for (let y = 0; y < rows; y++) for (let x = 0; x < width; x++) out[y * width + x] = fn(x, y + top);
    return out;
  }
  const gw = Math.floor((width - 1) / step) + 2;
  const gh = Math.floor((rows - 1) / step) + 2;
  const grid = new Float32Array(gw * gh);
  for (let gy = 0; gy < gh; gy++) for (let gx = 0; gx < gw; gx++) grid[gy * gw + gx] = fn(gx * step, top + gy * step);
  const inv = 1 / step;
  for (let y = 0; y < rows; y++) {
    const gy = Math.floor(y * inv);
    const ty = (y - gy * step) * inv;
    const row0 = gy * gw;
    const row1 = row0 + gw;
    for (let x = 0; x < width; x++) {
      const gx = Math.floor(x * inv);
      const tx = (x - gx * step) * inv;
      const a = grid[row0 + gx] ?? 0;
      const b = grid[row0 + gx + 1] ?? 0;
      const c = grid[row1 + gx] ?? 0;
      const d = grid[row1 + gx + 1] ?? 0;
      const upper = a + (b - a) * tx;
      out[y * width + x] = upper + (c + (d - c) * tx - upper) * ty;
    }
  }
  return out;
}
