import { createRng } from './hash.js';

const SIZE = 256;
const MASK = SIZE - 1;

/** Smooth value noise over a seeded 256x256 lattice; it wraps, but the scene never samples far enough to show it. */
export interface Noise {
  /** Value noise in [0, 1]. */
  at(x: number, y: number): number;
  /** Fractal sum of `octaves` layers, normalised to [0, 1]. */
  fbm(x: number, y: number, octaves: number): number;
  /** Ridged fractal: sharp crests where plain noise crosses its midpoint, like eroded peaks or dune crests. */
  ridged(x: number, y: number, octaves: number): number;
}

export function createNoise(seed: number): Noise {
  const rng = createRng(seed);
  const table = new Float32Array(SIZE * SIZE);
  for (let i = 0; i < table.length; i++) table[i] = rng.next();

  const at = (x: number, y: number): number => {
    const xf = Math.floor(x);
    const yf = Math.floor(y);
    const tx = x - xf;
    const ty = y - yf;
    const sx = tx * tx * (3 - 2 * tx);
    const sy = ty * ty * (3 - 2 * ty);
    const x0 = xf & MASK;
    const x1 = (xf + 1) & MASK;
    const y0 = (yf & MASK) * SIZE;
    const y1 = ((yf + 1) & MASK) * SIZE;
    const a = table[y0 + x0] ?? 0;
    const b = table[y0 + x1] ?? 0;
    const c = table[y1 + x0] ?? 0;
    const d = table[y1 + x1] ?? 0;
    const top = a + (b - a) * sx;
    return top + (c + (d - c) * sx - top) * sy;
  };

  // Each octave is shifted so lattice points of different octaves never line up into visible grid artefacts.
  const fbm = (x: number, y: number, octaves: number): number => {
    let sum = 0;
    let amplitude = 0.5;
    let total = 0;
    let fx = x;
    let fy = y;
    for (let o = 0; o < octaves; o++) {
      sum += at(fx + o * 31.7, fy + o * 17.3) * amplitude;
      total += amplitude;
      amplitude *= 0.5;
      fx *= 2.03;
      fy *= 2.03;
    }
    return sum / total;
  };

  const ridged = (x: number, y: number, octaves: number): number => {
    let sum = 0;
    let amplitude = 0.5;
    let total = 0;
    let fx = x;
    let fy = y;
    for (let o = 0; o < octaves; o++) {
      const n = 1 - Math.abs(at(fx + o * 31.7, fy + o * 17.3) * 2 - 1);
      sum += n * n * amplitude;
      total += amplitude;
      amplitude *= 0.5;
      fx *= 2.03;
      fy *= 2.03;
    }
    return sum / total;
  };

  return { at, fbm, ridged };
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

export function smoothstep(edge0: number, edge1: number, value: number): number {
  const t = clamp((value - edge0) / (edge1 - edge0), 0, 1);
  return t * t * (3 - 2 * t);
}
