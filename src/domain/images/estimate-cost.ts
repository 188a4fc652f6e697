import { computeCost, type PricedSettings } from '../models/pricing.js';
import type { GenerationPlan } from './plan-generation.js';

/** The catalogue's price for these settings, before the provider reports what it billed. */
export const estimateCost = (plan: Pick<GenerationPlan, 'model' | 'settings' | 'inputs'>): number => computeCost(plan.model.pricing, pricedSettings(plan));

/** What the price depends on: size, steps, the quality asked for and the input images (for providers that bill them). */
export function pricedSettings(plan: Pick<GenerationPlan, 'settings' | 'inputs'>): PricedSettings {
  const { settings, inputs } = plan;
  return {
    width: settings.width,
    height: settings.height,
    steps: settings.steps,
    ...(settings.output.quality === undefined ? {} : { quality: settings.output.quality }),
    ...(inputs.images.length === 0 ? {} : { inputs: inputs.images.map(({ width, height }) => ({ width, height })) }),
  };
}
