import type { Rgb } from './color.js';

/** Float RGB working buffer; painters blend into it and only the final pass quantises to bytes. */
export interface Canvas {
  readonly width: number;
  readonly height: number;
  readonly data: Float32Array;
}

export function createCanvas(width: number, height: number): Canvas {
  return { width, height, data: new Float32Array(width * height * 3) };
}

/** Alpha-blends `color` over the pixel; callers clip coordinates, this only guards against stray writes. */
export function blend(canvas: Canvas, x: number, y: number, color: Rgb, alpha: number): void {
  if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height || alpha <= 0) return;
  const i = (y * canvas.width + x) * 3;
  const d = canvas.data;
  const a = alpha > 1 ? 1 : alpha;
  d[i] = (d[i] ?? 0) + (color[0] - (d[i] ?? 0)) * a;
  d[i + 1] = (d[i + 1] ?? 0) + (color[1] - (d[i + 1] ?? 0)) * a;
  d[i + 2] = (d[i + 2] ?? 0) + (color[2] - (d[i + 2] ?? 0)) * a;
}

/** Adds light (stars, glints) without darkening what is underneath. */
export function addLight(canvas: Canvas, x: number, y: number, color: Rgb, amount: number): void {
  if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height) return;
  const i = (y * canvas.width + x) * 3;
  const d = canvas.data;
  d[i] = (d[i] ?? 0) + color[0] * amount;
  d[i + 1] = (d[i + 1] ?? 0) + color[1] * amount;
  d[i + 2] = (d[i + 2] ?? 0) + color[2] * amount;
}
