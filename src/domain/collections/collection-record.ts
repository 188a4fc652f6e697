import type { BlobStore } from '../../ports/blob-store.js';
import type { CollectionWithCount } from '../../ports/database.js';

export interface CollectionRecord {
  id: string;
  name: string;
  description: string;
  user_id: string;
  image_count: number;
  /** The public URL of the image added last, to show as the collection's cover; null when it is empty. */
  cover_image_url: string | null;
  created_at: string;
  updated_at: string;
}

export const toCollectionRecord = (row: CollectionWithCount, blobs: Pick<BlobStore, 'publicUrl'>): CollectionRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  user_id: row.user_id,
  image_count: row.image_count,
  cover_image_url: row.cover_key === null ? null : blobs.publicUrl(row.cover_key),
  created_at: row.created_at,
  updated_at: row.updated_at,
});
