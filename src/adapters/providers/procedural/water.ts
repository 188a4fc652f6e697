import type { Canvas } from './canvas.js';
import { fieldStep, sampleField } from './field.js';
import { clamp, smoothstep, type Noise } from './noise.js';
import type { Palette } from './palette.js';
import { octavesFor, type Scene } from './scene.js';
import type { SkyFrame } from './sky.js';

/**
 * Mirrors everything above the horizon into the water, displaced by perspective-scaled ripples. Far water
 * reflects more and near water shows more of its own colour (a cheap Fresnel), and a glitter path runs
 * down from the sun or moon.
 */
export function paintWater(canvas: Canvas, scene: Scene, palette: Palette, noise: Noise, frame: SkyFrame): void {
  if (scene.water === 'none') return;
  const { width, height, data } = canvas;
  const horizon = Math.ceil(frame.horizon);
  const span = Math.max(1, height - horizon);
  const glitter = scene.sun || scene.moon ? (scene.time === 'day' ? 0.6 : 1) : 0;
  const calm = scene.water === 'lake' ? 0.5 : 1;
  const octaves = Math.min(octavesFor(scene, height, 6), 5);
  const water = palette.water;
  const glow = palette.glow;
  // Perspective: ripples are compressed toward the horizon and spread out near the viewer.
  const waves = sampleField(width, horizon, height, fieldStep(height), (x, y) => {
    const z = 1 / ((y - horizon + 1) / span + 0.03);
    return noise.fbm(((x - width / 2) / height) * z * 1.08 + 500, z * 6, octaves);
  });
  for (let y = horizon; y < height; y++) {
    const t = (y - horizon + 1) / span;
    const ripple = t * height * 0.03 * calm;
    const reflectivity = 0.85 - 0.45 * t;
    const pathWidth = height * (0.015 + 0.12 * t);
    for (let x = 0; x < width; x++) {
      const wave = waves[(y - horizon) * width + x] ?? 0;
      const sx = clamp(Math.round(x + (wave - 0.5) * ripple * 2), 0, width - 1);
      const sy = clamp(Math.round(2 * frame.horizon - y - 1 + (wave - 0.5) * ripple * (calm === 1 ? 5 : 1)), 0, horizon - 1);
      const si = (sy * width + sx) * 3;
      const i = (y * width + x) * 3;
      const mixWater = 1 - reflectivity;
      // Wave faces tilt toward or away from the sky: lighter and darker bands.
      const facet = 0.8 + 0.4 * wave;
      let r = ((data[si] ?? 0) * reflectivity * 0.95 + water[0] * mixWater) * facet;
      let g = ((data[si + 1] ?? 0) * reflectivity * 0.95 + water[1] * mixWater) * facet;
      let b = ((data[si + 2] ?? 0) * reflectivity * 0.95 + water[2] * mixWater) * facet;
      if (glitter > 0) {
        const dx = (x - frame.cx) / pathWidth;
        const path = Math.exp(-dx * dx) * glitter;
        const sparkle = smoothstep(0.58, 0.7, wave) * path;
        r += glow[0] * sparkle * 0.9 + 40 * sparkle;
        g += glow[1] * sparkle * 0.9 + 40 * sparkle;
        b += glow[2] * sparkle * 0.9 + 40 * sparkle;
      }
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
    }
  }
}
