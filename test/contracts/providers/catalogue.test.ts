import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { createModelCatalog } from '../../../src/domain/models/catalog.js';
import { computeCost } from '../../../src/domain/models/pricing.js';
import { GENERATION_PARAMETERS } from '../../../src/domain/models/types.js';
import { buildNodeProviderSet, NODE_PROVIDER_SPECS } from '../../../src/runtimes/node/providers.js';

/* Invariants every catalogue entry of every provider keeps, so a new entry cannot quietly break the API. */

const env = loadConfig({ A1111_MODELS: 'dreamshaper_8' }).providerEnv;
const models = NODE_PROVIDER_SPECS.flatMap((spec) => spec.models(env));

describe('the model catalogue', () => {
  it('has one entry per id, across providers', () => {
    const ids = models.map((model) => model.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names every non-Workers AI model <provider>/<provider model>', () => {
    for (const model of models.filter((m) => m.provider !== 'workers-ai')) expect(model.id).toBe(`${model.provider}/${model.provider_model}`);
  });

  it('belongs each entry to a provider the registry knows', () => {
    const providers = new Set(NODE_PROVIDER_SPECS.map((spec) => spec.id));
    for (const model of models) expect(providers).toContain(model.provider);
  });

  it('offers every entry the formats the runtime can store: all three by default, PNG alone where the codec writes only PNG', () => {
    const everywhere = createModelCatalog(models, () => ({ available: true }));
    expect(everywhere.list().every((entry) => entry.outputs.formats.join() === 'png,jpeg,webp')).toBe(true);
    const pngOnly = createModelCatalog(models, () => ({ available: true }), undefined, ['png']);
    expect(pngOnly.list().every((entry) => entry.outputs.formats.join() === 'png')).toBe(true);
  });

  it('shows a cost at default settings for every model', () => {
    const catalog = createModelCatalog(models, () => ({ available: true }));
    for (const entry of catalog.list()) expect(entry.cost_per_image).toBeGreaterThanOrEqual(0);
  });

  it('names a replacement for every deprecated or shut-down model that is itself in the catalogue and never shut down before it', () => {
    const byId = new Map(models.map((model) => [model.id, model]));
    for (const model of models.filter((m) => m.deprecated_at !== undefined || m.shutdown_at !== undefined)) {
      const replacement = byId.get(model.replacement ?? '');
      expect(replacement, `${model.id} names no replacement in the catalogue`).toBeDefined();
      expect(
        replacement?.shutdown_at === undefined || (model.shutdown_at !== undefined && replacement.shutdown_at > model.shutdown_at),
        `${model.id}'s replacement ends first`,
      ).toBe(true);
    }
  });

  it('marks every remote provider unavailable, naming its settings, when nothing is configured', () => {
    const set = buildNodeProviderSet(loadConfig({}));
    expect([...set.providers.keys()]).toEqual(['local']);
    for (const spec of NODE_PROVIDER_SPECS.filter((s) => s.remote)) {
      expect(set.statusOf(spec.id).reason).toBe(`set ${spec.requires.join(' and ')} to enable provider ${spec.id}`);
    }
  });

  describe.each(models.map((model) => [model.id, model] as const))('%s', (_id, model) => {
    it('has a name, a description and a typical duration', () => {
      expect(model.name.trim()).not.toBe('');
      expect(model.description.trim()).not.toBe('');
      expect(model.typical_seconds).toBeGreaterThan(0);
    });

    it('has its default size within [min_size, max] and among its sizes when it lists them', () => {
      expect(model.min_size).toBeGreaterThan(0);
      expect(model.default_width).toBeGreaterThanOrEqual(model.min_size);
      expect(model.default_height).toBeGreaterThanOrEqual(model.min_size);
      expect(model.default_width).toBeLessThanOrEqual(model.max_width);
      expect(model.default_height).toBeLessThanOrEqual(model.max_height);
      if (model.sizes !== undefined) {
        expect(model.sizes).toContain(`${model.default_width}x${model.default_height}`);
        for (const size of model.sizes) {
          const [width = 0, height = 0] = size.split('x').map(Number);
          expect(width).toBeGreaterThanOrEqual(model.min_size);
          expect(width).toBeLessThanOrEqual(model.max_width);
          expect(height).toBeLessThanOrEqual(model.max_height);
        }
      }
    });

    it('has default steps within max_steps, and steps only when it takes a step parameter', () => {
      if (model.default_steps !== undefined) {
        expect(model.default_steps).toBeGreaterThanOrEqual(1);
        expect(model.default_steps).toBeLessThanOrEqual(model.max_steps ?? 0);
      }
      expect(model.parameters.includes('steps')).toBe(model.default_steps !== undefined);
    });

    it('lists only known parameters, once each, and no size control on a fixed-size model', () => {
      for (const parameter of model.parameters) expect(GENERATION_PARAMETERS).toContain(parameter);
      expect(new Set(model.parameters).size).toBe(model.parameters.length);
      if (model.min_size === model.max_width && model.max_width === model.max_height) expect(model.parameters).not.toContain('width');
    });

    it('has a non-negative price for every size it makes', () => {
      const rule = model.pricing;
      if (rule.kind === 'by_size') {
        for (const size of model.sizes ?? []) expect(rule.prices[size], `price for ${size}`).toBeGreaterThan(0);
      }
      const cost = computeCost(rule, { width: model.default_width, height: model.default_height, steps: model.default_steps });
      expect(cost).toBeGreaterThanOrEqual(0);
    });

    it('has real calendar dates for its lifecycle, deprecated before it shuts down', () => {
      for (const day of [model.deprecated_at, model.shutdown_at]) {
        if (day !== undefined) expect(new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10)).toBe(day);
      }
      if (model.deprecated_at !== undefined && model.shutdown_at !== undefined) expect(model.deprecated_at < model.shutdown_at).toBe(true);
    });

    it('has a default size its own size rule accepts', () => {
      const rule = model.size_rule;
      if (rule === undefined) return;
      const { default_width: width, default_height: height } = model;
      if (rule.multiple_of !== undefined) expect([width % rule.multiple_of, height % rule.multiple_of]).toEqual([0, 0]);
      expect(width * height).toBeGreaterThanOrEqual(rule.min_pixels ?? 0);
      expect(width * height).toBeLessThanOrEqual(rule.max_pixels ?? Number.MAX_SAFE_INTEGER);
      expect(Math.max(width, height) / Math.min(width, height)).toBeLessThanOrEqual(rule.max_aspect_ratio ?? Number.POSITIVE_INFINITY);
    });

    it('declares one or more input images when it takes any (a mask and a strength need one), and bills input images only when it takes them', () => {
      const inputs = model.inputs;
      if (inputs !== undefined) {
        expect(Number.isInteger(inputs.max_images) && inputs.max_images >= 1, 'a text-only model leaves inputs out').toBe(true);
      }
      if (model.pricing.kind === 'per_megapixel' && model.pricing.input_usd_per_megapixel !== undefined) expect(inputs?.max_images).toBeGreaterThan(0);
    });

    it('cites an https pricing source (the built-in model says it is free)', () => {
      if (model.provider === 'local') expect(model.pricing).toEqual({ kind: 'free' });
      else expect(new URL(model.pricing_source).protocol).toBe('https:');
    });
  });
});
