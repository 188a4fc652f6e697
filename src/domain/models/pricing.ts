import type { PricingRule } from './types.js';

export interface PricedSettings {
  width: number;
  height: number;
  steps?: number;
}

/** USD for one image with these settings; rounded to 1e-9 so sums stay free of float noise. */
export function computeCost(rule: PricingRule, settings: PricedSettings): number {
  switch (rule.kind) {
    case 'free':
      return 0;
    case 'per_image':
      return round(rule.usd);
    case 'tiles_and_steps': {
      const tiles = Math.ceil(settings.width / rule.tile_px) * Math.ceil(settings.height / rule.tile_px);
      return round(tiles * rule.usd_per_tile + (settings.steps ?? 0) * rule.usd_per_step);
    }
    case 'per_megapixel': {
      const megapixels = (settings.width * settings.height) / 1_000_000;
      return round((rule.round_up ? Math.ceil(megapixels) : megapixels) * rule.usd_per_megapixel);
    }
    case 'by_size':
      return round(rule.prices[`${settings.width}x${settings.height}`] ?? rule.default_usd);
  }
}

const round = (usd: number): number => Math.round(usd * 1e9) / 1e9;
