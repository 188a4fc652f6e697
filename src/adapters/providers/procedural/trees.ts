import type { Canvas } from './canvas.js';
import { blend } from './canvas.js';
import { mix, scale, type Rgb } from './color.js';
import { createRng } from './hash.js';
import { clamp } from './noise.js';
import type { Palette } from './palette.js';
import type { Scene } from './scene.js';
import type { Ridge } from './terrain.js';

/** Whether a layer carries trees: the nearer layers, where a tree is big enough to read as one. */
export function hasTrees(scene: Scene, ridge: Ridge, count: number): boolean {
  if (!scene.forest) return false;
  return scene.water !== 'none' ? ridge.index >= count - 2 : ridge.depth >= 0.5;
}

/** A row of tiered conifers standing on the ridge line, slightly darker than the ground behind them. */
export function paintTrees(canvas: Canvas, ridge: Ridge, scene: Scene, palette: Palette): void {
  const { width, height } = canvas;
  const rng = createRng(scene.noiseSeed ^ Math.imul(ridge.index + 1, 0x9e3779b1));
  const size = height * (0.035 + 0.085 * ridge.depth) * (scene.water === 'none' ? 1 : 0.6);
  if (size < 3) return;
  const dark: Rgb = mix(palette.foliage, palette.haze, ridge.fog);
  const frost = scene.snow ? mix(palette.snow, palette.haze, ridge.fog) : undefined;
  let x = -size * rng.range(0, 0.5);
  while (x < width + size) {
    const treeHeight = size * rng.range(0.65, 1.3);
    const halfWidth = treeHeight * rng.range(0.2, 0.28);
    // Trees thin out where the ridge is steep or high, like a tree line.
    const column = Math.round(clamp(x, 0, width - 1));
    const ground = ridge.top[column] ?? height;
    const elevation = (ridge.base - ground) / Math.max(1, ridge.amplitude);
    if (rng.next() > elevation * 0.9 - 0.15 || scene.terrain !== 'mountains') {
      const tone = mix(dark, scale(dark, 1.25), rng.next());
      const frosted = frost === undefined ? undefined : mix(tone, frost, 0.55);
      drawConifer(canvas, x, ground + treeHeight * 0.12, treeHeight, halfWidth, tone, frosted, rng.range(0, 1));
    }
    x += halfWidth * rng.range(0.7, 1.5);
  }
}

function drawConifer(
  canvas: Canvas,
  cx: number,
  baseY: number,
  treeHeight: number,
  halfWidth: number,
  color: Rgb,
  frost: Rgb | undefined,
  phase: number,
): void {
  const apex = baseY - treeHeight;
  const tiers = 3 + Math.floor(treeHeight / 18);
  const y0 = Math.max(0, Math.floor(apex));
  const y1 = Math.min(canvas.height - 1, Math.ceil(baseY));
  for (let y = y0; y <= y1; y++) {
    const p = (y + 0.5 - apex) / treeHeight;
    if (p <= 0) continue;
    // Sawtooth along the height gives the stacked-branch outline of a fir.
    const tier = (p * tiers + phase * 0.3) % 1;
    const hw = halfWidth * p * (0.55 + 0.45 * tier) + 0.5;
    const x0 = Math.max(0, Math.floor(cx - hw));
    const x1 = Math.min(canvas.width - 1, Math.ceil(cx + hw));
    const snowy = frost !== undefined && tier < 0.12;
    for (let x = x0; x <= x1; x++) {
      const edge = clamp(hw - Math.abs(x + 0.5 - cx), 0, 1);
      blend(canvas, x, y, snowy && frost !== undefined ? frost : color, edge);
    }
  }
}
