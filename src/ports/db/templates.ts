import type { Page, PageRequest } from './common.js';
import type { ImageParameters } from './images.js';

export interface TemplateRow {
  id: string;
  user_id: string;
  name: string;
  model: string;
  default_prompt: string;
  parameters: ImageParameters;
  created_at: string;
  updated_at: string;
}

export interface TemplateRepository {
  insert(row: TemplateRow): Promise<void>;
  /** Upserts the pre-loaded `system` templates at start. */
  seed(rows: readonly TemplateRow[]): Promise<void>;
  /** The user's own template or a `system` one. */
  findVisible(userId: string, id: string): Promise<TemplateRow | undefined>;
  listVisible(userId: string, page: PageRequest): Promise<Page<TemplateRow>>;
  update(row: TemplateRow): Promise<void>;
  delete(userId: string, id: string): Promise<boolean>;
}
