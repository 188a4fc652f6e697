import type { BlobStore } from '../../ports/blob-store.js';
import type { ImageParameters, ImageRow } from '../../ports/database.js';

/** An image as the API shows it: the stored row plus its public URL. */
export interface ImageRecord {
  id: string;
  prompt: string;
  model: string;
  r2_key: string;
  r2_url: string;
  width: number;
  height: number;
  created_at: string;
  user_id: string;
  cost: number;
  is_deleted: boolean;
  template_id: string | null;
  parameters: ImageParameters;
  metadata: Record<string, unknown> | null;
}

export function toImageRecord(row: ImageRow, blobs: BlobStore): ImageRecord {
  return {
    id: row.id,
    prompt: row.prompt,
    model: row.model,
    r2_key: row.r2_key,
    r2_url: blobs.publicUrl(row.r2_key),
    width: row.width,
    height: row.height,
    created_at: row.created_at,
    user_id: row.user_id,
    cost: row.cost,
    is_deleted: row.is_deleted,
    template_id: row.template_id,
    parameters: row.parameters,
    metadata: row.metadata,
  };
}

/** Every image object lives under this prefix; the start-up reconciler looks nowhere else. */
export const IMAGE_KEY_PREFIX = 'generated/';

export const imageKey = (imageId: string): string => `${IMAGE_KEY_PREFIX}${imageId}.png`;
