import type { Canvas } from './canvas.js';
import { mix, scale, type Rgb } from './color.js';
import { fieldStep, sampleField } from './field.js';
import { facingLevels } from './shading.js';
import { clamp, smoothstep, type Noise } from './noise.js';
import type { Palette } from './palette.js';
import { octavesFor, type Scene } from './scene.js';
import type { SkyFrame } from './sky.js';

const LEVELS = 5;

/** One silhouette layer: its top edge per column, and how far it is (0 = farthest, 1 = nearest). */
export interface Ridge {
  top: Float32Array;
  /** Row the layer fills down to (the water line in lake scenes, else the bottom of the image). */
  bottom: number;
  /** Per column, the highest top of any nearer layer: rows below it get painted over, so they are skipped. */
  hiddenBelow: Float32Array;
  base: number;
  amplitude: number;
  depth: number;
  /** Share of haze mixed in for distance; trees on the layer use the same. */
  fog: number;
  color: Rgb;
  index: number;
}

function profile(noise: Noise, scene: Scene, xn: number, layer: number, octaves: number): number {
  const lane = layer * 13.7 + 5;
  if (scene.terrain === 'dunes') {
    const crest = noise.ridged(xn * 1.3 + layer * 37.1, lane, Math.min(octaves, 3));
    return clamp((crest * 0.8 + noise.at(xn * 0.5, lane + 3) * 0.3 - 0.15) * 1.4, 0, 1);
  }
  if (scene.terrain === 'hills') {
    return clamp((noise.fbm(xn * 0.9 + layer * 37.1, lane, Math.min(octaves, 5)) - 0.25) * 2, 0, 1);
  }
  const peaks = noise.ridged(xn * 1.5 + layer * 37.1, lane, octaves);
  const envelope = noise.fbm(xn * 0.45 + layer * 11.3, lane + 40, 3);
  return clamp((peaks * 0.6 + envelope * 0.4 - 0.22) * 1.8, 0, 1);
}

export function buildRidges(scene: Scene, palette: Palette, noise: Noise, width: number, height: number, frame: SkyFrame): Ridge[] {
  const ridges: Ridge[] = [];
  const count = scene.ridgeCount;
  const lakeside = scene.water !== 'none';
  const fogBase = scene.mist ? 0.9 : scene.time === 'night' ? 0.55 : 0.72;
  for (let index = 0; index < count; index++) {
    const depth = count === 1 ? 1 : index / (count - 1);
    // Farther layers show finer detail per pixel: perspective shrinks their features.
    const frequency = 1.7 - depth * 0.7;
    const octaves = octavesFor(scene, height, frequency * 1.5);
    const sea = scene.water === 'sea';
    const amplitude = scene.relief * height * (lakeside ? (sea ? 0.35 : 1) * (1 - depth * 0.6) : 1 - depth * 0.45);
    const base = lakeside ? frame.horizon : frame.horizon + (height - frame.horizon) * depth * 0.78;
    const top = new Float32Array(width);
    for (let x = 0; x < width; x++) {
      const xn = (x / height) * frequency + index * 3.1;
      let h = profile(noise, scene, xn, index, octaves);
      // Open sea keeps only a few distant headlands rather than a wall of hills.
      if (sea) h *= smoothstep(0.45, 0.7, noise.at(xn * 0.35 + 80, index * 5.3));
      top[x] = base - amplitude * h;
    }
    const fog = fogBase * Math.pow(1 - depth, 1.3);
    const color = mix(mix(palette.landFar, palette.landNear, depth), palette.haze, fog);
    ridges.push({
      top,
      bottom: lakeside ? Math.ceil(frame.horizon) : height,
      hiddenBelow: new Float32Array(width).fill(height),
      base,
      amplitude,
      depth,
      fog,
      color,
      index,
    });
  }
  // All layers share a bottom row, so any nearer layer fully covers this one from its own (rounded-up) top down.
  for (let i = ridges.length - 2; i >= 0; i--) {
    const current = ridges[i];
    const nearer = ridges[i + 1];
    if (current === undefined || nearer === undefined) continue;
    for (let x = 0; x < width; x++) current.hiddenBelow[x] = Math.min(nearer.hiddenBelow[x] ?? height, Math.ceil(nearer.top[x] ?? height) + 1);
  }
  return ridges;
}

export function paintRidge(canvas: Canvas, ridge: Ridge, scene: Scene, palette: Palette, noise: Noise, frame: SkyFrame): void {
  const { width, height, data } = canvas;
  const { top, color, amplitude } = ridge;
  const sunSide = frame.cx < width / 2 ? 1 : -1;
  const levels = facingLevels(top, height, sunSide, LEVELS);
  // Rows per shading level: a face is about as wide as it is deep below the crest.
  const levelRows = 1 / Math.max(1, height * 0.012);
  const shadeStrength = (scene.time === 'night' ? 0.2 : 0.45) * (1 - (1 - ridge.depth) * 0.5);
  // Snowy scenes are white all over already; caps only mark the high peaks of otherwise bare mountains.
  const snowLine = !scene.snow && scene.terrain === 'mountains' && scene.time !== 'night' && ridge.depth <= 0.5 ? 0.62 : 2;
  const snowColor = mix(palette.snow, palette.haze, (1 - ridge.depth) * 0.35);
  const mist = (scene.mist ? 0.7 : 0.3) * (1 - ridge.depth * 0.6);
  const invAmp = 1 / Math.max(1, amplitude);
  let gullyTop = height;
  let gullyBottom = 0;
  for (let x = 0; x < width; x++) {
    gullyTop = Math.min(gullyTop, Math.floor(top[x] ?? height));
    gullyBottom = Math.max(gullyBottom, Math.ceil(ridge.hiddenBelow[x] ?? height));
  }
  gullyTop = Math.max(0, gullyTop);
  gullyBottom = Math.min(ridge.bottom, gullyBottom);
  const gullies =
    scene.terrain === 'mountains'
      ? sampleField(width, gullyTop, gullyBottom, fieldStep(height), (x, y) => noise.fbm((x * 22) / height, (y * 3) / height + ridge.index * 50, 2))
      : undefined;
  for (let x = 0; x < width; x++) {
    const y0 = top[x] ?? height;
    const h = (ridge.base - y0) * invAmp;
    const snowDepth = h > snowLine ? (h - snowLine) * amplitude * (0.5 + 0.7 * noise.fbm((x / height) * 12, ridge.index * 9, 3)) : 0;
    const start = Math.max(0, Math.floor(y0));
    const end = Math.min(ridge.bottom, height, ridge.hiddenBelow[x] ?? height);
    for (let y = start; y < end; y++) {
      const below = y - y0;
      const cover = clamp(below + 1, 0, 1);
      const fall = below * invAmp;
      const level = Math.min(LEVELS - 1.001, Math.max(0, below) * levelRows);
      const lower = Math.floor(level);
      const t = level - lower;
      const facing = (levels[lower]?.[x] ?? 0) * (1 - t) + (levels[lower + 1]?.[x] ?? 0) * t;
      const fade = Math.exp(-fall * 1.2);
      let light = 1 + facing * shadeStrength * fade;
      // Gullies: noise stretched down the slope breaks the broad shading into rock faces.
      if (gullies !== undefined && fade > 0.05) light *= 1 + ((gullies[(y - gullyTop) * width + x] ?? 0.5) - 0.5) * fade * shadeStrength * 0.6;
      let r = color[0] * light;
      let g = color[1] * light;
      let b = color[2] * light;
      if (below < snowDepth) {
        const edge = clamp((snowDepth - below) / 2, 0, 1);
        const s = facing < 0 ? mix(snowColor, scale(snowColor, 0.72), -facing) : snowColor;
        r += (s[0] - r) * edge;
        g += (s[1] - g) * edge;
        b += (s[2] - b) * edge;
      }
      // Valley mist pools at the foot of each layer, which is what separates the layers visually.
      const fogAmount = smoothstep(0.25, 1.3, fall) * mist;
      r += (palette.haze[0] - r) * fogAmount;
      g += (palette.haze[1] - g) * fogAmount;
      b += (palette.haze[2] - b) * fogAmount;
      const i = (y * width + x) * 3;
      data[i] = (data[i] ?? 0) + (r - (data[i] ?? 0)) * cover;
      data[i + 1] = (data[i + 1] ?? 0) + (g - (data[i + 1] ?? 0)) * cover;
      data[i + 2] = (data[i + 2] ?? 0) + (b - (data[i + 2] ?? 0)) * cover;
    }
  }
}
