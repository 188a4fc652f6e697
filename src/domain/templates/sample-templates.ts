import type { TemplateRow } from '../../ports/database.js';
import { SYSTEM_USER_ID } from './template-record.js';

const SEEDED_AT = '2026-01-01T00:00:00.000Z';

/** Pre-loaded, read-only samples; they use the offline model so they work on every install. */
export const sampleTemplates: readonly TemplateRow[] = [
  {
    id: 'tmpl_sample_sunset_coast',
    name: 'Sunset coast',
    model: 'local/procedural',
    default_prompt: 'a calm ocean at sunset under warm orange clouds',
    parameters: { width: 768, height: 512 },
  },
  {
    id: 'tmpl_sample_night_mountains',
    name: 'Night mountains',
    model: 'local/procedural',
    default_prompt: 'snowy mountains under a starry night sky with a bright moon',
    parameters: { width: 512, height: 768, steps: 6 },
  },
  {
    id: 'tmpl_sample_product_shot',
    name: 'Product shot (FLUX schnell)',
    model: '@cf/black-forest-labs/flux-1-schnell',
    default_prompt: 'studio product photo of a ceramic mug on a marble table, soft light',
    parameters: { steps: 4 },
  },
].map((sample) => ({ ...sample, user_id: SYSTEM_USER_ID, created_at: SEEDED_AT, updated_at: SEEDED_AT }));
