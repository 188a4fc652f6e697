import type { ImageRow } from '../ports/database.js';

/** A stored image row of `alice`'s, as repositories return it; `over` changes what a test is about. */
export const imageRow = (id: string, over: Partial<ImageRow> = {}): ImageRow => ({
  id,
  user_id: 'alice',
  prompt: 'a cat',
  model: 'local/procedural',
  r2_key: `generated/${id}.png`,
  width: 64,
  height: 64,
  cost: 0,
  is_deleted: false,
  created_at: '2026-11-01T10:00:00.000Z',
  deleted_at: null,
  template_id: null,
  metadata: null,
  parameters: { width: 64, height: 64 },
  ...over,
});
