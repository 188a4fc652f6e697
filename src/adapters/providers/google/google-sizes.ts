import { nearestAspectRatio } from '../http-support.js';

/*
 * The sizes Gemini's image models make. Gemini takes no pixel size: `generationConfig.imageConfig` takes an
 * `aspectRatio` and, on the Gemini 3 image models, an `imageSize` of `1K`, `2K` or `4K` (googleapis/js-genai
 * src/types.ts ImageConfig, and imageConfigToMldev in src/converters/_models_converters.ts at 6e9b35c, 2026-08-21).
 * So each model here offers the exact `WIDTHxHEIGHT` list of Google's resolution tables, and the adapter sends the
 * ratio and tier a size stands for. Google bills a Gemini 3 image by its tier, whatever its ratio.
 *
 * The tables are Google's image-generation guide (https://ai.google.dev/gemini-api/docs/image-generation,
 * "Resolution tables") as copied on 2026-02-28 into a stored repository, read 2026-11-27: Gemini 3 Pro Image's ten
 * ratios; Gemini 3.1 Flash Image's same ten plus 1:4, 4:1, 1:8 and 8:1; Gemini 2.5 Flash Image's ten at about one
 * megapixel. Other stored copies of the guide agree on the Gemini 3 sizes. The image records the size that came back.
 */

export type ImageTier = '1K' | '2K' | '4K';

/** What Gemini's `imageConfig` says for one size: the ratio, and the tier where the model has more than one. */
export interface GeminiImageConfig {
  aspectRatio: string;
  imageSize?: ImageTier;
}

const TIERS: readonly ImageTier[] = ['1K', '2K', '4K'];

/** Google's Gemini 3 sizes at 1K, 2K and 4K for each ratio. */
const GEMINI_3: Readonly<Record<string, readonly [string, string, string]>> = {
  '1:1': ['1024x1024', '2048x2048', '4096x4096'],
  '2:3': ['848x1264', '1696x2528', '3392x5056'],
  '3:2': ['1264x848', '2528x1696', '5056x3392'],
  '3:4': ['896x1200', '1792x2400', '3584x4800'],
  '4:3': ['1200x896', '2400x1792', '4800x3584'],
  '4:5': ['928x1152', '1856x2304', '3712x4608'],
  '5:4': ['1152x928', '2304x1856', '4608x3712'],
  '9:16': ['768x1376', '1536x2752', '3072x5504'],
  '16:9': ['1376x768', '2752x1536', '5504x3072'],
  '21:9': ['1584x672', '3168x1344', '6336x2688'],
};

/** The panoramic ratios Gemini 3.1 Flash Image added, and Nano Banana 2.1 keeps. */
const PANORAMIC: Readonly<Record<string, readonly [string, string, string]>> = {
  '1:4': ['512x2048', '1024x4096', '2048x8192'],
  '4:1': ['2048x512', '4096x1024', '8192x2048'],
  '1:8': ['384x3072', '768x6144', '1536x12288'],
  '8:1': ['3072x384', '6144x768', '12288x1536'],
};

/** Gemini 2.5 Flash Image: one size per ratio, no tier. */
const GEMINI_2_5: Readonly<Record<string, string>> = {
  '1:1': '1024x1024',
  '2:3': '832x1248',
  '3:2': '1248x832',
  '3:4': '864x1184',
  '4:3': '1184x864',
  '4:5': '896x1152',
  '5:4': '1152x896',
  '9:16': '768x1344',
  '16:9': '1344x768',
  '21:9': '1536x672',
};

/** The sizes one model makes, each with the `imageConfig` that asks for it. */
export type SizeMenu = ReadonlyMap<string, GeminiImageConfig>;

/**
 * A Gemini 3 model's sizes at `tiers`, with the panoramic ratios when it has them. `sendsTier` is false for a model
 * with a single tier (Nano Banana 2 Lite makes 1K only), which is then left to its default rather than named.
 */
export function gemini3Sizes(tiers: readonly ImageTier[], options: { panoramic: boolean; sendsTier: boolean }): SizeMenu {
  const menu = new Map<string, GeminiImageConfig>();
  const ratios = options.panoramic ? { ...GEMINI_3, ...PANORAMIC } : GEMINI_3;
  for (const tier of tiers) {
    for (const [aspectRatio, sizes] of Object.entries(ratios)) {
      const size = sizes[TIERS.indexOf(tier)];
      if (size !== undefined) menu.set(size, options.sendsTier ? { aspectRatio, imageSize: tier } : { aspectRatio });
    }
  }
  return menu;
}

export const gemini25Sizes = (): SizeMenu => new Map(Object.entries(GEMINI_2_5).map(([aspectRatio, size]) => [size, { aspectRatio }]));

/**
 * Imagen 4's 1K sizes for its five ratios, kept only for the catalogue entries of the shut-down Imagen models (never
 * called). Google's own Imagen page was not among the stored sources; these are the sizes client libraries list for
 * Imagen 4 (several agree: 1:1 1024x1024, 3:4 896x1280, 4:3 1280x896, 9:16 768x1408, 16:9 1408x768).
 */
export const IMAGEN_SIZES = ['1024x1024', '896x1280', '1280x896', '768x1408', '1408x768'] as const;

/** A price for every size of a menu, by the tier it is asked at. */
export function pricesByTier(menu: SizeMenu, usd: Partial<Record<ImageTier, number>>): Record<string, number> {
  const prices: Record<string, number> = {};
  for (const [size, config] of menu) {
    const price = config.imageSize === undefined ? undefined : usd[config.imageSize];
    if (price === undefined) throw new Error(`no price for ${size} (${config.imageSize ?? 'no tier'})`);
    prices[size] = price;
  }
  return prices;
}

/** The longest side a menu's sizes reach, for the catalogue's max_width and max_height. */
export function longestSide(sizes: Iterable<string>): number {
  let longest = 0;
  for (const size of sizes) for (const side of size.split('x').map(Number)) longest = Math.max(longest, side);
  return longest;
}

/** The shortest side a menu's sizes reach, for the catalogue's min_size. */
export function shortestSide(sizes: Iterable<string>): number {
  let shortest = Number.POSITIVE_INFINITY;
  for (const size of sizes) for (const side of size.split('x').map(Number)) shortest = Math.min(shortest, side);
  return shortest;
}

/**
 * The `imageConfig` for a size of `menu`. The catalogue lets only listed sizes through; a size outside it (a model the
 * adapter does not list) gets the nearest of Google's ratios and no tier, which Gemini reads as its default, 1K.
 */
export function imageConfigFor(menu: SizeMenu | undefined, width: number, height: number): GeminiImageConfig {
  const listed = menu?.get(`${width}x${height}`);
  if (listed !== undefined) return listed;
  return { aspectRatio: nearestAspectRatio(width, height, Object.keys(GEMINI_3)) };
}
