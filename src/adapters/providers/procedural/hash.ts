/**
 * Seeded randomness for the procedural renderer. Everything here is pure 32-bit integer math so a
 * prompt and seed always produce the same picture; `Math.random` would break that promise.
 */

/** murmur3's fmix32 finalizer: makes every input bit affect every output bit. */
export function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 32-bit FNV-1a over UTF-16 code units, finalised because FNV alone avalanches poorly in the low bits. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Order-sensitive combination of several 32-bit values into one. */
export function combineHashes(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) h = mix32(Math.imul(h ^ (part >>> 0), 0x27d4eb2d) + 0x165667b1);
  return h;
}

/** Hash of a pixel or lattice coordinate, mapped to [0, 1). */
export function hash2(x: number, y: number, seed: number): number {
  return mix32(Math.imul(x, 0x1b873593) ^ Math.imul(y, 0x5bd1e995) ^ seed) / 4294967296;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  range(min: number, max: number): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: tiny, fast and good enough for layout decisions. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new RangeError('cannot pick from an empty list');
      return item;
    },
  };
}
