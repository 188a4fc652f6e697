import { describe, expect, it } from 'vitest';
import { computeCost } from '../../../domain/models/pricing.js';
import { workersAiModels } from './workers-ai-models.js';

describe('workersAiModels', () => {
  it('is not empty', () => {
    expect(workersAiModels.length).toBeGreaterThan(0);
  });

  it('has unique ids starting with @cf/', () => {
    const ids = workersAiModels.map((model) => model.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^@cf\/[a-z0-9-]+\/[a-z0-9.-]+$/);
  });

  it('prices the documented models as the pricing page does at default settings', () => {
    const costAtDefaults = (id: string): number => {
      const model = workersAiModels.find((candidate) => candidate.id === id);
      if (!model) throw new Error(`missing ${id}`);
      return computeCost(model.pricing, {
        width: model.default_width,
        height: model.default_height,
        steps: model.default_steps,
      });
    };
    expect(costAtDefaults('@cf/black-forest-labs/flux-1-schnell')).toBeCloseTo(0.0006336, 9);
    expect(costAtDefaults('@cf/leonardo/phoenix-1.0')).toBeCloseTo(0.02607, 9);
    expect(costAtDefaults('@cf/leonardo/lucid-origin')).toBeCloseTo(0.063492, 9);
    expect(costAtDefaults('@cf/stabilityai/stable-diffusion-xl-base-1.0')).toBe(0);
  });
});
