import { hex, type Rgb } from './color.js';

/**
 * Words that steer the scene; two-word entries match adjacent words. Plurals are listed rather than stemmed:
 * stemming "glass" or "moss" misfires.
 */
export const GROUPS = {
  night: ['night', 'milky way', 'midnight', 'nighttime', 'nocturnal', 'moonlit', 'moonlight', 'starry', 'starlit'],
  sunset: ['sunset', 'golden hour', 'sunsets', 'dusk', 'evening', 'twilight', 'sundown'],
  dawn: ['dawn', 'blue hour', 'sunrise', 'morning', 'daybreak'],
  day: ['noon', 'midday', 'sunny', 'day', 'daytime', 'afternoon', 'bright', 'summer', 'daylight'],
  space: ['space', 'galaxy', 'cosmos', 'cosmic', 'nebula', 'planet', 'planets', 'universe', 'orbit', 'astronaut'],
  sea: ['ocean', 'oceans', 'sea', 'seas', 'beach', 'coast', 'shore', 'waves', 'bay', 'harbor', 'harbour', 'tropical', 'seascape'],
  lake: ['lake', 'lakes', 'river', 'pond', 'reflection', 'reflections', 'water', 'lagoon', 'fjord', 'mirror'],
  mountain: ['mountain', 'mountains', 'peak', 'peaks', 'alps', 'alpine', 'ridge', 'ridges', 'cliff', 'cliffs', 'volcano', 'summit', 'himalaya', 'himalayas'],
  hills: ['hill', 'hills', 'meadow', 'meadows', 'field', 'fields', 'valley', 'countryside', 'farm', 'grassland', 'prairie', 'pasture'],
  desert: ['desert', 'deserts', 'dune', 'dunes', 'sand', 'sandy', 'sahara', 'canyon', 'arid', 'mesa', 'oasis'],
  snow: ['snow', 'snowy', 'winter', 'ice', 'icy', 'frozen', 'arctic', 'glacier', 'frost', 'frosty', 'polar', 'tundra'],
  forest: ['forest', 'forests', 'tree', 'trees', 'woods', 'pine', 'pines', 'jungle', 'woodland', 'taiga', 'fir'],
  city: ['city', 'cities', 'skyline', 'town', 'building', 'buildings', 'urban', 'metropolis', 'downtown', 'tower', 'towers', 'skyscraper', 'skyscrapers'],
  clouds: ['cloud', 'clouds', 'cloudy', 'overcast'],
  storm: ['storm', 'stormy', 'thunder', 'rain', 'rainy', 'gloomy', 'dramatic'],
  mist: ['fog', 'foggy', 'mist', 'misty', 'haze', 'hazy'],
  clear: ['clear', 'cloudless'],
  sun: ['sun', 'sunny', 'sunlight', 'sunshine'],
  moon: ['moon', 'moonlit', 'moonlight', 'lunar'],
  stars: ['star', 'stars', 'starry', 'starlight', 'starlit'],
  bright: ['white', 'silver', 'pale', 'light', 'pastel'],
  dark: ['dark', 'black', 'shadow', 'shadows', 'moody'],
} as const satisfies Record<string, readonly string[]>;

export type Group = keyof typeof GROUPS;

const COLOR_WORDS: ReadonlyArray<readonly [readonly string[], Rgb]> = [
  [['red', 'crimson', 'scarlet', 'ruby'], hex(0xe03a2a)],
  [['orange', 'amber', 'copper'], hex(0xff8a30)],
  [['yellow', 'lemon'], hex(0xf0e040)],
  [['gold', 'golden'], hex(0xffc040)],
  [['green', 'emerald', 'lush'], hex(0x3aa050)],
  [['teal', 'cyan', 'turquoise', 'aqua'], hex(0x20b8b0)],
  [['blue', 'azure', 'cobalt', 'sapphire'], hex(0x3a6ae0)],
  [['purple', 'violet', 'lavender', 'magenta', 'indigo'], hex(0x8a4ac0)],
  [['pink', 'rose', 'coral'], hex(0xf080b0)],
];

const NEGATORS = new Set(['no', 'without', 'not', 'never']);

export interface Terms {
  /** Wanted words in prompt order, so a colour can be tied to the noun after it. */
  readonly tokens: readonly string[];
  readonly positive: ReadonlySet<string>;
  readonly negative: ReadonlySet<string>;
}

/** Splits the prompt into wanted words, and words the caller asked to leave out ("no sun", or the negative prompt). */
export function readTerms(prompt: string, negativePrompt?: string): Terms {
  const kept: string[] = [];
  const negative = new Set<string>();
  const tokens = prompt.toLowerCase().match(/[a-z]+/g) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    const next = tokens[i + 1];
    if (NEGATORS.has(token) && next !== undefined) {
      negative.add(next);
      i++;
    } else {
      kept.push(token);
    }
  }
  for (const token of negativePrompt?.toLowerCase().match(/[a-z]+/g) ?? []) negative.add(token);
  const pairs = kept.slice(1).map((token, i) => `${kept[i] ?? ''} ${token}`);
  return { tokens: kept, positive: new Set([...kept, ...pairs]), negative };
}

export function mentions(terms: Terms, group: Group): boolean {
  return GROUPS[group].some((word) => terms.positive.has(word) && !terms.negative.has(word));
}

export function suppressed(terms: Terms, group: Group): boolean {
  return GROUPS[group].some((word) => terms.negative.has(word));
}

export interface ColorTints {
  /** Colours for the whole scene, strongest in the sky ("a red sunset", "purple"). */
  sky: Rgb[];
  /** Colours tied to the land: "green hills", "red desert". */
  ground: Rgb[];
  /** Colours tied to water: "turquoise sea". */
  water: Rgb[];
}

const GROUND_GROUPS: readonly Group[] = ['mountain', 'hills', 'desert', 'forest', 'snow', 'city'];
const WATER_GROUPS: readonly Group[] = ['sea', 'lake'];

function inGroups(word: string | undefined, groups: readonly Group[]): boolean {
  return word !== undefined && groups.some((group) => (GROUPS[group] as readonly string[]).includes(word));
}

/** Colours named in the prompt, each aimed at the noun right after it (one adjective may sit in between). */
export function colorTints(terms: Terms): ColorTints {
  const tints: ColorTints = { sky: [], ground: [], water: [] };
  terms.tokens.forEach((token, i) => {
    if (terms.negative.has(token)) return;
    const entry = COLOR_WORDS.find(([words]) => words.includes(token));
    if (entry === undefined) return;
    const next = [terms.tokens[i + 1], terms.tokens[i + 2]];
    const target = next.some((word) => inGroups(word, GROUND_GROUPS))
      ? tints.ground
      : next.some((word) => inGroups(word, WATER_GROUPS))
        ? tints.water
        : tints.sky;
    target.push(entry[1]);
  });
  return tints;
}
