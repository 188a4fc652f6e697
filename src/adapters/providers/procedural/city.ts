import { blend, type Canvas } from './canvas.js';
import { mix, scale, type Rgb } from './color.js';
import { createRng, hash2 } from './hash.js';
import type { Palette } from './palette.js';
import type { Scene } from './scene.js';

/**
 * Two rows of buildings standing on `groundY`: a hazy back row and a sharper front row, with window grids
 * (lit at dusk and night) and the odd antenna. Everything scales with the image height.
 */
export function paintCity(canvas: Canvas, scene: Scene, palette: Palette, groundY: number): void {
  const rng = createRng(scene.noiseSeed ^ 0xc17e);
  const downtown = rng.range(0.3, 0.7);
  for (const row of [0, 1]) {
    const color = mix(palette.building, palette.haze, row === 0 ? 0.45 : 0.1);
    let x = -rng.range(0, 0.05) * canvas.height;
    while (x < canvas.width) {
      const w = canvas.height * rng.range(0.03, 0.075);
      const centre = (x + w / 2) / canvas.width - downtown;
      const tallness = 0.35 + Math.exp(-(centre * centre) / 0.05);
      const h = canvas.height * rng.range(0.05, 0.2) * tallness * (row === 0 ? 1.25 : 1);
      const tone = mix(color, scale(color, 0.8), rng.next());
      drawBuilding(canvas, scene, palette, Math.round(x), Math.round(w), Math.round(groundY - h), Math.ceil(groundY), tone, row === 0, rng.int(0, 1 << 30));
      if (h > canvas.height * 0.18 && rng.chance(0.5)) {
        const ax = Math.round(x + w / 2);
        for (let y = Math.round(groundY - h - canvas.height * 0.04); y < groundY - h; y++) blend(canvas, ax, y, tone, 0.9);
      }
      x += w + canvas.height * rng.range(-0.01, 0.012);
    }
  }
}

function drawBuilding(
  canvas: Canvas,
  scene: Scene,
  palette: Palette,
  left: number,
  w: number,
  top: number,
  bottom: number,
  color: Rgb,
  far: boolean,
  salt: number,
): void {
  const cell = Math.max(3, Math.round(canvas.height * (far ? 0.008 : 0.011)));
  const pane = Math.max(1, Math.round(cell * 0.5));
  const litWindow = mix(palette.window, color, far ? 0.45 : 0.1);
  const darkWindow = scale(color, 0.75);
  const sunLeft = scene.time !== 'night';
  for (let y = Math.max(0, top); y < Math.min(bottom, canvas.height); y++) {
    const row = Math.floor((y - top) / cell);
    const inRow = (y - top) % cell;
    for (let x = Math.max(0, left); x < Math.min(left + w, canvas.width); x++) {
      const col = Math.floor((x - left) / cell);
      const inCol = (x - left) % cell;
      const isWindow = row > 0 && inRow >= cell - pane && inCol >= cell - pane && x < left + w - cell / 2 && y < bottom - cell;
      let pixel = color;
      if (isWindow) pixel = hash2(col, row, salt) < palette.windowsLit ? litWindow : darkWindow;
      // A lighter strip on one edge reads as the sunlit side of a box.
      else if (sunLeft && x - left < w * 0.15) pixel = scale(color, 1.12);
      blend(canvas, x, y, pixel, 1);
    }
  }
}
