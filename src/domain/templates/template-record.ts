import type { ImageParameters, TemplateRow } from '../../ports/database.js';

export interface TemplateRecord {
  id: string;
  name: string;
  model: string;
  default_prompt: string;
  parameters: ImageParameters;
  user_id: string;
  /** Pre-loaded samples (`user_id` `system`) are read-only. */
  is_sample: boolean;
  created_at: string;
  updated_at: string;
}

export const SYSTEM_USER_ID = 'system';

export const toTemplateRecord = (row: TemplateRow): TemplateRecord => ({
  id: row.id,
  name: row.name,
  model: row.model,
  default_prompt: row.default_prompt,
  parameters: row.parameters,
  user_id: row.user_id,
  is_sample: row.user_id === SYSTEM_USER_ID,
  created_at: row.created_at,
  updated_at: row.updated_at,
});
