import { addLight, blend, type Canvas } from './canvas.js';
import { mix, scale, type Rgb } from './color.js';
import { fieldStep, sampleField } from './field.js';
import { createRng } from './hash.js';
import { clamp, smoothstep, type Noise } from './noise.js';
import type { Palette } from './palette.js';
import { octavesFor, type Scene } from './scene.js';

export interface SkyFrame {
  /** Horizon row in pixels. */
  horizon: number;
  /** Centre of the sun, moon or planet in pixels. */
  cx: number;
  cy: number;
}

const GLOW: Record<Scene['time'], readonly [strength: number, radius: number]> = {
  day: [0.45, 0.1],
  sunset: [0.85, 0.22],
  dawn: [0.65, 0.18],
  night: [0.3, 0.07],
};

/** Gradient, sun/moon halo, the band of warm light along the horizon, and nebulae in space scenes. */
export function paintSkyGradient(canvas: Canvas, scene: Scene, palette: Palette, noise: Noise, frame: SkyFrame): void {
  const { width, height, data } = canvas;
  const [strength, radius] = scene.sun || scene.moon ? GLOW[scene.time] : [0, 1];
  const glowStrength = scene.space ? 0 : strength * (scene.storm ? 0.3 : 1);
  const lowLight = scene.time === 'sunset' || scene.time === 'dawn' ? 0.55 : scene.time === 'day' ? 0.15 : 0.1;
  const invRadius2 = 1 / (radius * radius);
  const bandWidth = scene.storm ? 0.8 : 0.45;
  for (let y = 0; y < height; y++) {
    const v = Math.min(1, y / frame.horizon);
    const base =
      v < 0.55 ? mix(palette.skyTop, palette.skyMid, smoothstep(0, 0.55, v)) : mix(palette.skyMid, palette.horizon, Math.pow((v - 0.55) / 0.45, 1.3));
    const dy = (y - frame.cy) / height;
    const horizonWeight = v * v * v * v * lowLight;
    for (let x = 0; x < width; x++) {
      const dx = (x - frame.cx) / height;
      const glow = glowStrength / (1 + (dx * dx + dy * dy) * invRadius2);
      const band = horizonWeight / (1 + (dx * dx) / (bandWidth * bandWidth));
      const t = Math.min(1, glow + band);
      const i = (y * width + x) * 3;
      data[i] = base[0] + (palette.glow[0] - base[0]) * t;
      data[i + 1] = base[1] + (palette.glow[1] - base[1]) * t;
      data[i + 2] = base[2] + (palette.glow[2] - base[2]) * t;
    }
  }
  if (scene.space) paintNebula(canvas, scene, palette, noise);
}

function paintNebula(canvas: Canvas, scene: Scene, palette: Palette, noise: Noise): void {
  const { width, height } = canvas;
  const octaves = Math.min(octavesFor(scene, height, 1.6), 7);
  const step = fieldStep(height);
  // Domain warp makes the gas look swirled instead of like plain cloud noise.
  const warp = (x: number, y: number): number => noise.at((x / height) * 1.1 + 40, (y / height) * 1.1) * 1.5;
  const first = sampleField(width, 0, height, step, (x, y) => noise.fbm((x / height) * 1.6 + warp(x, y), (y / height) * 1.6 + 90, octaves));
  const second = sampleField(width, 0, height, step, (x, y) => noise.fbm((x / height) * 1.6 + 60, (y / height) * 1.6 - warp(x, y), octaves));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const a = smoothstep(0.45, 0.85, first[y * width + x] ?? 0);
      const b = smoothstep(0.5, 0.85, second[y * width + x] ?? 0);
      if (a > 0) addLight(canvas, x, y, palette.nebulaA, a * 0.55);
      if (b > 0) addLight(canvas, x, y, palette.nebulaB, b * 0.4);
    }
  }
}

/** Stars and, on clear nights, a faint Milky Way; painted before the disc and clouds so those cover them. */
export function paintStars(canvas: Canvas, scene: Scene, noise: Noise, frame: SkyFrame): void {
  const { width, height } = canvas;
  const rng = createRng(scene.noiseSeed ^ 0x5eed5);
  const skyRows = Math.min(height, Math.ceil(frame.horizon));
  const count = Math.min(40_000, Math.round((width * skyRows) / (scene.space ? 260 : 420)));
  const fade = (y: number): number => 1 - smoothstep(0.55, 1, y / frame.horizon) * 0.9;
  for (let s = 0; s < count; s++) {
    const x = Math.floor(rng.next() * width);
    const y = Math.floor(rng.next() * skyRows);
    const b = Math.pow(rng.next(), 5) * fade(y) * (scene.storm ? 0.2 : 1);
    const hue = rng.next();
    const color: Rgb = hue < 0.2 ? [200, 215, 255] : hue > 0.85 ? [255, 230, 200] : [255, 255, 255];
    addLight(canvas, x, y, color, 0.15 + b * 0.85);
    if (b > 0.35 && height >= 256) {
      for (const [ox, oy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const)
        addLight(canvas, x + ox, y + oy, color, b * 0.3);
    }
  }
  if (scene.space || scene.cloudCover > 0.6) return;
  // The band runs corner to corner in a direction picked from the seed.
  const tilt = rng.range(-0.6, 0.6);
  const offset = rng.range(0.3, 0.7) * width;
  const norm = 1 / Math.sqrt(1 + tilt * tilt);
  const starOctaves = Math.min(octavesFor(scene, height, 5), 6);
  const bandAt = (x: number, y: number): number => {
    const d = ((x - offset - tilt * y) * norm) / height;
    return Math.exp(-(d * d) / 0.012);
  };
  const glow = sampleField(width, 0, skyRows, fieldStep(height), (x, y) =>
    bandAt(x, y) < 0.03 ? 0 : bandAt(x, y) * smoothstep(0.35, 0.75, noise.fbm((x / height) * 5 + 11, (y / height) * 5, starOctaves)) * fade(y),
  );
  for (let y = 0; y < skyRows; y++) {
    for (let x = 0; x < width; x++) {
      const amount = glow[y * width + x] ?? 0;
      if (amount > 0.002) addLight(canvas, x, y, [170, 180, 220], amount * 0.22);
    }
  }
}

/** Sun, crescent moon, or ringed planet, with a one-pixel antialiased rim. */
export function paintDisc(canvas: Canvas, scene: Scene, palette: Palette, noise: Noise, frame: SkyFrame): void {
  const { width, height } = canvas;
  const planet = scene.space;
  const radius = height * (planet ? 0.16 : scene.time === 'night' ? 0.045 : scene.time === 'day' ? 0.05 : 0.07);
  const rng = createRng(scene.noiseSeed ^ 0x3007);
  const shadowDx = rng.range(0.35, 0.8) * radius * (rng.chance(0.5) ? 1 : -1);
  const light = planet ? mix(palette.nebulaA, [230, 200, 170], 0.6) : palette.disc;
  const x0 = Math.max(0, Math.floor(frame.cx - radius - 2));
  const x1 = Math.min(width - 1, Math.ceil(frame.cx + radius + 2));
  const y0 = Math.max(0, Math.floor(frame.cy - radius - 2));
  const y1 = Math.min(height - 1, Math.ceil(frame.cy + radius + 2));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const dx = x + 0.5 - frame.cx;
      const dy = y + 0.5 - frame.cy;
      const dist = Math.sqrt(dx * dx + dy * dy);
      const cover = clamp(radius - dist + 0.5, 0, 1);
      if (cover <= 0) continue;
      const r = dist / radius;
      if (planet) {
        // Lambert shading from the seed-chosen side, banded like a gas giant.
        const nz = Math.sqrt(Math.max(0, 1 - r * r));
        const lit = clamp((dx / radius) * Math.sign(shadowDx) * -0.7 + nz * 0.7 - (dy / radius) * 0.2, 0.04, 1);
        const bands = noise.fbm((dx / radius) * 0.6 + 200, (dy / radius) * 5, 4);
        blend(canvas, x, y, mix([30, 20, 40], mix(light, [255, 240, 220], bands - 0.3), lit), cover);
      } else if (scene.moon && !scene.sun) {
        const sx = dx - shadowDx;
        const inShadow = clamp(radius - Math.sqrt(sx * sx + dy * dy) + 0.5, 0, 1);
        const craters = 0.82 + 0.18 * noise.fbm((dx / radius) * 2 + 300, (dy / radius) * 2, 4);
        blend(canvas, x, y, scale(light, craters), cover * (1 - inShadow * 0.92));
      } else {
        // Limb darkening keeps the sun from looking like a flat sticker.
        blend(canvas, x, y, mix(light, palette.glow, r * r * 0.35), cover);
      }
    }
  }
}
