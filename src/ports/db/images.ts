import type { Write } from './unit-of-work.js';
import type { Page, PageRequest, TimeRange } from './common.js';

/** The generation settings used for an image, or saved in a template; `src/domain/models` names the same shape `GenerationOptions`. */
export interface ImageParameters {
  width?: number;
  height?: number;
  seed?: number;
  negative_prompt?: string;
  steps?: number;
  guidance?: number;
  /** Image-to-image: how far the result may move from the first input image, 0..1. */
  strength?: number;
  quality?: 'low' | 'medium' | 'high' | 'auto';
  background?: 'transparent' | 'opaque' | 'auto';
  output_format?: 'png' | 'jpeg' | 'webp';
  /** 0..100, for jpeg and webp. */
  output_compression?: number;
  input_fidelity?: 'low' | 'high';
  /**
   * OpenAI's `moderation` for its GPT image models, passed to the providers that take it (OpenAI's). Asked of the
   * provider, never recorded on an image: the other providers have no such setting.
   */
  moderation?: 'auto' | 'low';
  /**
   * OpenAI's `partial_images` (0..3, with a stream only): partial images while the model draws, where the provider
   * streams them (OpenAI's GPT image models). Asked of the provider, never recorded on an image.
   */
  partial_images?: number;
  /** The mask an edit used (the gallery image's id); the edited images are the record's `source_image_ids`. */
  mask_image_id?: string;
  /** A batch's input images, given to every one of its prompts (an image record keeps them as `source_image_ids`). */
  image_ids?: string[];
}

/** `upload`: a file a caller put into the gallery; `generated`: a model's image. */
export type ImageKind = 'generated' | 'upload';

/**
 * Why an upload was stored: `file`, put into the gallery on purpose (POST /api/uploads); `input`, an image an edit
 * or a variation sent with its request; `mask`, a mask (sent with an edit, or painted in the web app). Inputs and
 * masks are uploads all the same (`kind: upload`), left out of a list that names no kind.
 */
export type UploadRole = 'file' | 'input' | 'mask';

export interface ImageRow {
  id: string;
  user_id: string;
  prompt: string;
  model: string;
  r2_key: string;
  width: number;
  height: number;
  cost: number;
  is_deleted: boolean;
  created_at: string;
  deleted_at: string | null;
  template_id: string | null;
  metadata: Record<string, unknown> | null;
  parameters: ImageParameters;
  /** The API key that made it, counted against that key's budgets; absent for images made without a key. */
  key_id?: string | null;
  /** `generated` when absent (rows from before uploads existed). */
  kind?: ImageKind;
  /** Lineage: the gallery images this one was made from, in the order given; empty or absent for none. */
  source_image_ids?: readonly string[];
  /** Its WebP thumbnails are stored beside it (keys from its id: see domain/images/thumbnails); absent means not. */
  has_thumbnails?: boolean;
  /** An upload's role; absent (or `file`) for a file uploaded on purpose, and for every generated image. */
  upload_role?: UploadRole;
  /** What finds the same file sent again: SHA-256 (hex) of an upload's bytes as sent, and how stored (see contentHash); absent for generated images. */
  content_hash?: string;
}

/** Where an image sits in the newest-first order: what a cursor points after. */
export interface ImagePosition {
  created_at: string;
  id: string;
}

/** Narrows a listing; every field is optional and they combine with AND. */
export interface ImageFilter extends TimeRange {
  /** Case-insensitive substring of the prompt, matched literally (`%` and `_` are not wildcards). */
  text?: string;
  /** Exact model id. */
  model?: string;
  /**
   * Only this kind (`upload`: every upload, inputs and masks included). Absent: the gallery, generated images and
   * files uploaded on purpose, without the inputs and masks (upload_role) that edits stored.
   */
  kind?: ImageKind;
  /** Children: images made from this image (it is among their `source_image_ids`). */
  derived_from?: string;
}

/** Every read takes the caller's user id: a row of another user is invisible, never forbidden. */
export interface ImageRepository {
  /**
   * The writes that record a new image with its live counter, gallery version, lineage edges and usage rollup, for
   * `Database.commit`, beside other aggregates' writes that must land with it (its charge's settlement). The unit
   * fails, writing nothing, if the id is taken.
   */
  recordWrites(row: ImageRow): Write[];
  /** `recordWrites` committed on its own. */
  insert(row: ImageRow): Promise<void>;
  /** Many at once, in one transaction, with the same counters and rollups as `insert` (seeding, imports). */
  insertMany(rows: readonly ImageRow[]): Promise<void>;
  /** Ids of this user's live images made from this image (its children), newest first: one indexed read, no count. */
  derivedIds(userId: string, id: string, limit: number): Promise<string[]>;
  /** Live (not soft-deleted) image of this user. */
  findLive(userId: string, id: string): Promise<ImageRow | undefined>;
  /**
   * Newest first (`created_at`, then `id`, both descending); `total` counts what the filter matches.
   * With `after`, the page starts after that image (keyset paging: flat cost however deep) and `offset` is not used.
   */
  listLive(userId: string, page: PageRequest & { after?: ImagePosition }, filter?: ImageFilter): Promise<Page<ImageRow> & { hasMore: boolean }>;
  /**
   * This user's live upload of exactly these bytes (`content_hash`), the oldest where there are several (two
   * identical files sent at the same moment may both be stored); undefined when there is none.
   */
  findUploadByContent(userId: string, contentHash: string): Promise<ImageRow | undefined>;
  /**
   * An input or a mask of this user becomes a file uploaded on purpose (upload_role `file`): listed without `kind`
   * from now on, counted, and the gallery's version raised. False when there is no such live input or mask.
   */
  showUpload(userId: string, id: string): Promise<boolean>;
  /**
   * Removes an upload of this user outright, record and counters (not a soft delete): for the files of a request
   * that was refused after storing them, which must leave nothing behind. False when there is no such upload.
   */
  discardUpload(userId: string, id: string): Promise<boolean>;
  /** Marks the image deleted; false when there is no live image of this user with that id. */
  softDelete(userId: string, id: string, at: string): Promise<boolean>;
  /** Says its thumbnails are stored (made after it was recorded), raising the gallery's version; false if no such image. */
  markThumbnails(userId: string, id: string): Promise<boolean>;
  /**
   * Which of these object keys a live image's record points at, any user's. A soft-deleted image's files are
   * nobody's: its delete removes them, and the orphan sweep removes what a failed removal left. For housekeeping
   * only, never for a request.
   */
  liveKeys(keys: readonly string[]): Promise<Set<string>>;
  /** Which of these image ids are live images, any user's, as `liveKeys`: for thumbnails. */
  liveIds(ids: readonly string[]): Promise<Set<string>>;
}
