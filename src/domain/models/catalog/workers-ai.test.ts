import { describe, expect, it } from 'vitest';
import { computeCost } from '../pricing.js';
import { GENERATION_PARAMETERS } from '../types.js';
import { workersAiModels } from './workers-ai.js';

describe('workersAiModels', () => {
  it('is not empty', () => {
    expect(workersAiModels.length).toBeGreaterThan(0);
  });

  it('has unique ids starting with @cf/', () => {
    const ids = workersAiModels.map((model) => model.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^@cf\/[a-z0-9-]+\/[a-z0-9.-]+$/);
  });

  describe.each(workersAiModels.map((model) => [model.id, model] as const))('%s', (_id, model) => {
    it('targets the workers-ai provider with its own id', () => {
      expect(model.provider).toBe('workers-ai');
      expect(model.provider_model).toBe(model.id);
      expect(model.name.trim()).not.toBe('');
      expect(model.description.trim()).not.toBe('');
      expect(model.typical_seconds).toBeGreaterThan(0);
    });

    it('has its default size within [min_size, max]', () => {
      expect(model.min_size).toBeGreaterThan(0);
      expect(model.default_width).toBeGreaterThanOrEqual(model.min_size);
      expect(model.default_height).toBeGreaterThanOrEqual(model.min_size);
      expect(model.default_width).toBeLessThanOrEqual(model.max_width);
      expect(model.default_height).toBeLessThanOrEqual(model.max_height);
    });

    it('has default steps within max_steps, and steps only when it takes a step parameter', () => {
      if (model.default_steps !== undefined) {
        expect(model.default_steps).toBeGreaterThanOrEqual(1);
        expect(model.max_steps).toBeDefined();
        expect(model.default_steps).toBeLessThanOrEqual(model.max_steps ?? 0);
      }
      expect(model.parameters.includes('steps')).toBe(model.default_steps !== undefined);
    });

    it('lists only known parameters, once each', () => {
      for (const parameter of model.parameters) expect(GENERATION_PARAMETERS).toContain(parameter);
      expect(new Set(model.parameters).size).toBe(model.parameters.length);
      // A fixed-size model must not accept width/height.
      if (model.min_size === model.max_width && model.max_width === model.max_height) {
        expect(model.parameters).not.toContain('width');
        expect(model.parameters).not.toContain('height');
      }
    });

    it('has non-negative pricing', () => {
      const rule = model.pricing;
      switch (rule.kind) {
        case 'free':
          break;
        case 'per_image':
          expect(rule.usd).toBeGreaterThanOrEqual(0);
          break;
        case 'tiles_and_steps':
          expect(rule.usd_per_tile).toBeGreaterThanOrEqual(0);
          expect(rule.usd_per_step).toBeGreaterThanOrEqual(0);
          expect(rule.tile_px).toBe(512);
          break;
      }
      const cost = computeCost(rule, {
        width: model.default_width,
        height: model.default_height,
        steps: model.default_steps,
      });
      expect(cost).toBeGreaterThanOrEqual(0);
    });

    it('cites an https pricing source', () => {
      const url = new URL(model.pricing_source);
      expect(url.protocol).toBe('https:');
    });
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
