import type { BlobStore } from '../../ports/blob-store.js';
import type { ImageKind, ImageParameters, ImageRow, UploadRole } from '../../ports/database.js';
import { thumbnailUrls, type ThumbnailUrls } from './thumbnails.js';

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
  /** `generated` by a model, or an `upload`. */
  kind: ImageKind;
  /** Why an upload was stored (`file`, `input` or `mask`: see UploadRole); null for a generated image. */
  upload_role: UploadRole | null;
  /** Lineage: the gallery images this one was made from (parents); `GET /api/images?derived_from=<id>` lists children. */
  source_image_ids: string[];
  /** WebP previews for the gallery's tiles (256 and 768 px on the long side); null for an image stored without them. */
  thumbnails: ThumbnailUrls | null;
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
    kind: row.kind ?? 'generated',
    upload_role: row.kind === 'upload' ? (row.upload_role ?? 'file') : null,
    source_image_ids: [...(row.source_image_ids ?? [])],
    thumbnails: thumbnailUrls(row, blobs),
  };
}

/** Every generated image's object lives under this prefix, uploads under `uploads/`; the reconciler looks at both. */
export const IMAGE_KEY_PREFIX = 'generated/';

/** The object key of a generated image: fixed by its id and format, so a retry overwrites its own object. */
export const imageKey = (imageId: string, extension: 'png' | 'jpg' | 'webp' = 'png'): string => `${IMAGE_KEY_PREFIX}${imageId}.${extension}`;

/** The image id a generated image's object key names (the inverse of imageKey); undefined for any other key. */
export function imageIdOfKey(key: string): string | undefined {
  return /^generated\/([^/]+)\.(?:png|jpg|webp)$/.exec(key)?.[1];
}

/** The extension of an output format in object keys. */
export const extensionOf = (format: 'png' | 'jpeg' | 'webp' | undefined): 'png' | 'jpg' | 'webp' => (format === 'jpeg' ? 'jpg' : (format ?? 'png'));
