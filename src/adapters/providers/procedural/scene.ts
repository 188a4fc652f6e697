import { combineHashes, createRng, hashString } from './hash.js';
import { colorTints, mentions, readTerms, suppressed, type ColorTints, type Terms } from './keywords.js';
import { clamp } from './noise.js';

export type TimeOfDay = 'day' | 'sunset' | 'dawn' | 'night';
export type Terrain = 'mountains' | 'hills' | 'dunes' | 'none';
export type Water = 'none' | 'sea' | 'lake';

export interface SceneInput {
  prompt: string;
  seed: number;
  negativePrompt?: string;
  steps?: number;
  guidance?: number;
}

/** Everything the painters need, decided up front so each layer stays a dumb function of this record. */
export interface Scene {
  time: TimeOfDay;
  space: boolean;
  terrain: Terrain;
  water: Water;
  snow: boolean;
  forest: boolean;
  city: boolean;
  sun: boolean;
  moon: boolean;
  stars: boolean;
  /** 0 = clear sky, 1 = overcast. */
  cloudCover: number;
  storm: boolean;
  mist: boolean;
  tints: ColorTints;
  brightness: number;
  /** How strongly prompt colours win over the hashed palette (from guidance). */
  strength: number;
  /** Hue drift from the prompt hash, in degrees, so unrelated prompts get different moods. */
  hueShift: number;
  /** 0..1 share of the octaves that are useful at the output size (from steps). */
  detail: number;
  /** Horizon line as a fraction of the height. */
  horizon: number;
  /** Sun, moon or planet centre as fractions of width and height. */
  celestialX: number;
  celestialY: number;
  ridgeCount: number;
  /** Peak height of the tallest ridge as a fraction of the height. */
  relief: number;
  /** Seed for every noise field and per-item random choice. */
  noiseSeed: number;
}

const DEFAULT_STEPS = 4;
const DEFAULT_GUIDANCE = 7.5;

function pickTime(terms: Terms, roll: number): TimeOfDay {
  if (mentions(terms, 'night') || (mentions(terms, 'moon') && !mentions(terms, 'day'))) return 'night';
  if (mentions(terms, 'sunset')) return 'sunset';
  if (mentions(terms, 'dawn')) return 'dawn';
  if (mentions(terms, 'day')) return 'day';
  if (mentions(terms, 'stars') || mentions(terms, 'space')) return 'night';
  return roll < 0.45 ? 'day' : roll < 0.7 ? 'sunset' : roll < 0.82 ? 'dawn' : 'night';
}

/**
 * The prompt hash decides the mood (palette, which features a keyword-less prompt gets); the seed decides
 * the composition (where the sun sits, the ridge shapes, the clouds), so reseeding keeps the scene but redraws it.
 */
export function buildScene(input: SceneInput): Scene {
  const terms = readTerms(input.prompt, input.negativePrompt);
  const promptHash = hashString(input.prompt);
  const seed = Number.isFinite(input.seed) ? Math.trunc(input.seed) : 0;
  const mood = createRng(promptHash);
  const layout = createRng(combineHashes(promptHash, seed >>> 0, Math.floor(seed / 4294967296)));

  const time = pickTime(terms, mood.next());
  const space = mentions(terms, 'space');
  const desert = mentions(terms, 'desert');
  const namedTerrain = mentions(terms, 'mountain') || mentions(terms, 'hills') || desert;
  let terrain: Terrain = desert ? 'dunes' : mentions(terms, 'mountain') ? 'mountains' : mentions(terms, 'hills') ? 'hills' : 'none';
  if (terrain === 'none' && !space) terrain = mood.chance(0.6) ? 'mountains' : 'hills';
  if (terrain === 'mountains' && suppressed(terms, 'mountain')) terrain = 'hills';

  const sea = mentions(terms, 'sea');
  let water: Water = sea ? 'sea' : mentions(terms, 'lake') ? 'lake' : 'none';
  if (water === 'none' && !space && !desert && !namedTerrain && mood.chance(0.35)) water = 'lake';
  if (suppressed(terms, 'sea') || suppressed(terms, 'lake')) water = 'none';
  // An ocean prompt with no land named is open sea: far-off hills at most.
  if (water === 'sea' && !namedTerrain) terrain = mood.chance(0.5) ? 'hills' : 'none';

  const snow = mentions(terms, 'snow') && !suppressed(terms, 'snow');
  const forestDefault = !desert && !space && terrain !== 'none' && mood.chance(0.4);
  const forest = (mentions(terms, 'forest') || forestDefault) && !suppressed(terms, 'forest') && !desert;
  const city = mentions(terms, 'city') && !suppressed(terms, 'city');

  const storm = mentions(terms, 'storm');
  let cloudCover = mood.range(0.15, 0.55);
  if (mentions(terms, 'clouds')) cloudCover = 0.7;
  if (storm) cloudCover = 0.9;
  if (mentions(terms, 'clear') || desert) cloudCover = Math.min(cloudCover, 0.15);
  if (suppressed(terms, 'clouds')) cloudCover = 0;

  const night = time === 'night';
  const sun = !night && !space && !storm && !suppressed(terms, 'sun');
  const moon = (night || mentions(terms, 'moon') || space) && !suppressed(terms, 'moon') && !storm;
  const stars = (night || space) && !suppressed(terms, 'stars');

  const strength = clamp((input.guidance ?? DEFAULT_GUIDANCE) / DEFAULT_GUIDANCE, 0, 2);
  const steps = clamp(Math.round(input.steps ?? DEFAULT_STEPS), 1, 8);
  let brightness = 1;
  if (mentions(terms, 'bright')) brightness += 0.12 * strength;
  if (mentions(terms, 'dark')) brightness -= 0.25 * strength;

  const low = time === 'sunset' || time === 'dawn';
  return {
    time,
    space,
    terrain: space && !namedTerrain ? 'none' : terrain,
    water: space ? 'none' : water,
    snow,
    forest,
    city,
    sun,
    moon,
    stars,
    cloudCover: space ? 0 : cloudCover,
    storm,
    mist: mentions(terms, 'mist'),
    tints: colorTints(terms),
    brightness: clamp(brightness, 0.5, 1.3),
    strength,
    hueShift: mood.range(-18, 18) * (1.2 - 0.6 * Math.min(strength, 1)),
    detail: 0.4 + 0.6 * Math.pow(steps / 8, 0.6),
    horizon: water === 'sea' ? layout.range(0.52, 0.62) : layout.range(0.56, 0.7),
    celestialX: layout.range(0.18, 0.82),
    celestialY: space ? layout.range(0.25, 0.6) : low ? layout.range(0.3, 0.5) : layout.range(0.1, 0.3),
    ridgeCount: terrain === 'none' ? 0 : layout.int(3, 5),
    relief: terrain === 'mountains' ? layout.range(0.28, 0.42) : terrain === 'dunes' ? layout.range(0.1, 0.16) : layout.range(0.1, 0.18),
    noiseSeed: layout.int(0, 0x7fffffff),
  };
}

/**
 * Octaves for a fractal whose first octave spans `baseFrequency` cycles per image height. Octaves whose
 * wavelength would drop under four pixels only add grain, so the size sets the ceiling and `steps` picks
 * how close to it to go.
 */
export function octavesFor(scene: Scene, height: number, baseFrequency: number): number {
  const useful = Math.floor(Math.log2(Math.max(8, height) / (4 * baseFrequency))) + 1;
  return clamp(Math.round(useful * scene.detail), 2, 12);
}
