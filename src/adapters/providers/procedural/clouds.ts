import type { Canvas } from './canvas.js';
import { fieldStep, sampleField } from './field.js';
import { clamp, smoothstep, type Noise } from './noise.js';
import type { Palette } from './palette.js';
import { octavesFor, type Scene } from './scene.js';
import type { SkyFrame } from './sky.js';

/**
 * Stretched fractal noise thresholded by cloud cover. Rows squash toward the horizon for perspective;
 * thin cloud edges take the lit colour and dense cores the shade colour, with extra glow near the sun.
 */
export function paintClouds(canvas: Canvas, scene: Scene, palette: Palette, noise: Noise, frame: SkyFrame): void {
  if (scene.cloudCover <= 0) return;
  const { width, height, data } = canvas;
  const octaves = Math.min(octavesFor(scene, height, 1.1), 8);
  const threshold = 0.7 - scene.cloudCover * 0.35;
  const opacity = scene.storm ? 0.97 : 0.92;
  const rows = Math.min(height, Math.ceil(frame.horizon));
  const sunWeight = scene.sun || scene.moon ? 1 : 0;
  const lit = palette.cloudLit;
  const shade = palette.cloudShade;
  const glow = palette.glow;
  // Perspective: far (low) clouds are flatter and smaller.
  const field = sampleField(width, 0, rows, fieldStep(height), (x, y) => {
    const depth = 1 / (1.15 - y / frame.horizon);
    const ny = depth * 1.3 + 7;
    const nx = ((x - width / 2) / height) * 1.1 * (0.6 + depth * 0.4) + 50;
    return noise.fbm(nx, ny + noise.at(nx * 0.5, ny * 0.5) * 0.6, octaves);
  });
  for (let y = 0; y < rows; y++) {
    const v = y / frame.horizon;
    const mask = smoothstep(0, 0.12, v) * (1 - smoothstep(0.7, 1, v) * 0.85);
    if (mask <= 0) continue;
    const dy = (y - frame.cy) / height;
    for (let x = 0; x < width; x++) {
      const n = field[y * width + x] ?? 0;
      const density = smoothstep(threshold, threshold + 0.2, n) * mask;
      if (density <= 0.002) continue;
      const thickness = clamp((n - threshold) * 3.2, 0, 1);
      const dx = (x - frame.cx) / height;
      const nearSun = sunWeight / (1 + (dx * dx + dy * dy) * 40);
      const t = 0.25 + 0.75 * (1 - thickness);
      const i = (y * width + x) * 3;
      const a = density * opacity;
      const g = nearSun * 0.6;
      const r = shade[0] + (lit[0] - shade[0]) * t + (glow[0] - lit[0]) * g;
      const gr = shade[1] + (lit[1] - shade[1]) * t + (glow[1] - lit[1]) * g;
      const b = shade[2] + (lit[2] - shade[2]) * t + (glow[2] - lit[2]) * g;
      data[i] = (data[i] ?? 0) + (r - (data[i] ?? 0)) * a;
      data[i + 1] = (data[i + 1] ?? 0) + (gr - (data[i + 1] ?? 0)) * a;
      data[i + 2] = (data[i + 2] ?? 0) + (b - (data[i + 2] ?? 0)) * a;
    }
  }
}
