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
    'Steps set the level of detail; guidance sets how strongly colour words tint the scene.',
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
  pricing: { kind: 'free' },
  pricing_source: 'built-in: runs locally, no charge',
};
