import { createCanvas, type Canvas } from './canvas.js';
import { paintCity } from './city.js';
import { paintClouds } from './clouds.js';
import { mix32 } from './hash.js';
import { createNoise } from './noise.js';
import { buildPalette } from './palette.js';
import { buildScene, type Scene, type SceneInput } from './scene.js';
import { paintDisc, paintSkyGradient, paintStars, type SkyFrame } from './sky.js';
import { buildRidges, paintRidge } from './terrain.js';
import { hasTrees, paintTrees } from './trees.js';
import { paintWater } from './water.js';

export interface RenderInput extends SceneInput {
  width: number;
  height: number;
}

/** 8-bit RGB, row by row; a plain Uint8Array so the drawing runs where Node's Buffer does not (Workers). */
export interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3;
}

/**
 * Where the drawing is: `done` of its `total` stages finished, `stage` the one starting (`drawn` once all are).
 * Sent between stages, so a listener costs nothing inside the pixel loops.
 */
export interface RenderStage {
  done: number;
  total: number;
  stage: string;
}

export type OnRenderStage = (stage: RenderStage) => void;

/** Guards memory: the catalogue caps at 2048, this only stops a runaway caller from allocating gigabytes. */
const MAX_SIDE = 8192;

/**
 * Draws a landscape steered by the prompt. Deterministic: the same input always yields the same bytes,
 * because every random choice comes from hashes of the prompt and seed.
 */
export function renderPixels(input: RenderInput, onStage?: OnRenderStage): RawPixels {
  const { width, height } = input;
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(value) || value < 1 || value > MAX_SIDE) throw new RangeError(`${name} must be an integer from 1 to ${MAX_SIDE}, got ${value}`);
  }
  const scene = buildScene(input);
  const palette = buildPalette(scene);
  const noise = createNoise(scene.noiseSeed);
  const canvas = createCanvas(width, height);
  const frame = skyFrame(scene, width, height);
  // sky, stars, sun or moon, clouds, each ridge, city, water, finish
  const total = 4 + Number(scene.stars) + Number(scene.sun || scene.moon) + scene.ridgeCount + Number(scene.city);
  let done = 0;
  const next = (stage: string): void => onStage?.({ done: done++, total, stage });

  next('sky');
  paintSkyGradient(canvas, scene, palette, noise, frame);
  if (scene.stars) next('stars');
  if (scene.stars) paintStars(canvas, scene, noise, frame);
  if (scene.sun || scene.moon) next(scene.sun ? 'sun' : 'moon');
  if (scene.sun || scene.moon) paintDisc(canvas, scene, palette, noise, frame);
  next('clouds');
  paintClouds(canvas, scene, palette, noise, frame);

  const ridges = buildRidges(scene, palette, noise, width, height, frame);
  // The city stands behind the nearer ridges so they can hide its base, or on the shore in water scenes.
  const cityBefore = scene.water !== 'none' ? ridges.length : Math.max(1, Math.ceil(ridges.length / 2));
  let cityDrawn = false;
  for (const ridge of ridges) {
    if (scene.city && !cityDrawn && ridge.index === cityBefore) {
      next('city');
      paintCity(canvas, scene, palette, ridge.base);
      cityDrawn = true;
    }
    next(`ridge ${ridge.index + 1} of ${ridges.length}`);
    paintRidge(canvas, ridge, scene, palette, noise, frame);
    if (hasTrees(scene, ridge, ridges.length)) paintTrees(canvas, ridge, scene, palette);
  }
  if (scene.city && !cityDrawn) next('city');
  if (scene.city && !cityDrawn) paintCity(canvas, scene, palette, scene.water !== 'none' || ridges.length === 0 ? frame.horizon : height);
  next('water');
  paintWater(canvas, scene, palette, noise, frame);
  next('vignette');
  const data = finish(canvas, scene);
  onStage?.({ done, total, stage: 'drawn' });
  return { data, width, height, channels: 3 };
}

function skyFrame(scene: Scene, width: number, height: number): SkyFrame {
  const horizon = scene.terrain === 'none' && scene.water === 'none' && !scene.city ? height : scene.horizon * height;
  return { horizon, cx: scene.celestialX * width, cy: scene.celestialY * height };
}

/** Vignette, then a tiny hashed dither before quantising so smooth gradients do not band. */
function finish(canvas: Canvas, scene: Scene): Uint8Array {
  const { width, height, data } = canvas;
  const out = new Uint8Array(width * height * 3);
  const clamped = new Uint8ClampedArray(out.buffer);
  const salt = mix32(scene.noiseSeed);
  const cx = width / 2;
  const cy = height / 2;
  const inv = 1 / (cx * cx + cy * cy);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - cx;
      const dy = y - cy;
      const r2 = (dx * dx + dy * dy) * inv;
      const vignette = 1 - 0.28 * r2 * r2;
      const dither = (mix32(Math.imul(y * width + x, 0x9e3779b1) ^ salt) & 0xff) / 255 - 0.5;
      const i = (y * width + x) * 3;
      // Uint8ClampedArray clamps and rounds (half to even) on store, which is deterministic.
      clamped[i] = (data[i] ?? 0) * vignette + dither;
      clamped[i + 1] = (data[i + 1] ?? 0) * vignette + dither;
      clamped[i + 2] = (data[i + 2] ?? 0) * vignette + dither;
    }
  }
  return out;
}
