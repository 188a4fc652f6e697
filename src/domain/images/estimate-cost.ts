import { computeCost } from '../models/pricing.js';
import type { GenerationPlan } from './plan-generation.js';

/** The catalogue's price for these settings, before the provider reports what it billed. */
export const estimateCost = ({ model, settings }: Pick<GenerationPlan, 'model' | 'settings'>): number =>
  computeCost(model.pricing, { width: settings.width, height: settings.height, steps: settings.steps });
