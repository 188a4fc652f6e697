import type { CollectionWithCount } from '../../ports/database.js';

export interface CollectionRecord {
  id: string;
  name: string;
  description: string;
  user_id: string;
  image_count: number;
  created_at: string;
  updated_at: string;
}

export const toCollectionRecord = (row: CollectionWithCount): CollectionRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  user_id: row.user_id,
  image_count: row.image_count,
  created_at: row.created_at,
  updated_at: row.updated_at,
});
