import type { ModelDefinition } from '../../../domain/models/types.js';

export const proceduralModel: ModelDefinition = {
  id: 'local/procedural',
  name: 'Procedural (offline)',
  provider: 'local',
  provider_model: 'procedural',
  description:
    'Deterministic procedural renderer, not an AI model: draws a landscape (sky, sun or moon, clouds, mountains, water, forest, city) ' +
    'steered by keywords in the prompt such as sunset, night, ocean, desert, snow or colour names. The same prompt and seed always give ' +
    'the same picture. It needs no network or API key, so the service runs offline and in tests. ' +
    'Steps set the level of detail; guidance sets how strongly colour words tint the scene. ' +
    'Given an image it edits it without AI: the drawing fills the transparent area of a mask, every other pixel kept as it was, ' +
    'or, without a mask, is blended over the image by strength (default 0.6).',
  speed: 'fast',
  quality: 'draft',
  typical_seconds: 0.1,
  default_width: 512,
  default_height: 512,
  min_size: 64,
  max_width: 2048,
  max_height: 2048,
  default_steps: 4,
  max_steps: 8,
  parameters: ['width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'],
  // Built-in, so no outside source: src/adapters/providers/procedural/edit.ts is what it does with these.
  inputs: { max_images: 1, mask: true, strength: true },
  pricing: { kind: 'free' },
  pricing_source: 'built-in: runs locally, no charge',
};
