import type { ImageRow, UploadRole } from '../../ports/database.js';
import type { EncodedThumbnail } from '../../ports/image-codec.js';
import type { Deps, RequestContext, VerbArgs } from '../context.js';
import { stripMetadataFromBytes } from './strip-metadata.js';
import { toImageRecord, type ImageRecord } from '../images/image-record.js';
import { deleteThumbnails, storeThumbnails, THUMBNAIL_REQUEST } from '../images/thumbnails.js';
import { checkImageHeader, verifyImageFile } from './check-image-file.js';
import { gateKey } from './fair-gate.js';
import { inSpan } from '../../ports/tracer.js';
import { contentHash, uploadName, type UploadFile } from './upload-identity.js';

/** The `model` of an uploaded image: still a string, so clients written to the spec keep working. */
export const UPLOAD_MODEL = 'upload';
export const UPLOAD_KEY_PREFIX = 'uploads/';

export interface UploadImageInput {
  /** The file as bytes in memory (MCP's base64 data, an edit's inputs)... */
  bytes?: Uint8Array;
  /** ...or as staged while the request came in (multipart uploads), read into memory only to be stored. */
  file?: UploadFile;
  /**
   * The file's name as sent, kept as the record's prompt (no path, at most 200 characters); a file sent without one
   * (or as `blob`) is named by its role, type and time (uploadName).
   */
  filename?: string;
  /** The request field the bytes came in, named in errors (`file`, `image`, `data`). */
  field?: string;
  /** Why it is stored: `file` (the default) is listed in the gallery, an `input` or a `mask` only under kind upload. */
  role?: UploadRole;
  /**
   * Already checked and decoded by the caller (stageInputFiles), with the thumbnails that decode made (verify with
   * THUMBNAIL_REQUEST): not decoded a second time.
   */
  verified?: { thumbnails?: readonly EncodedThumbnail[] };
}

/** The upload, and whether this call stored it (false: the same bytes were already this user's upload). */
export interface StoredUpload {
  image: ImageRecord;
  created: boolean;
}

/**
 * Puts a caller's PNG, JPEG or WebP into the gallery as it is (byte for byte, so an edit keeps exactly its pixels),
 * as an image of kind `upload` costing nothing. Checked from the header, then decoded in full off the event loop,
 * before anything is stored. The same bytes sent again by the same user are the image already stored (its record is
 * the answer): one file, however many edits send it.
 */
export async function uploadImage(args: VerbArgs<UploadImageInput>): Promise<ImageRecord> {
  return (await storeUpload(args)).image;
}

/** uploadImage, saying whether it stored the file or found it stored already (what an edit may remove again). */
export function storeUpload(args: VerbArgs<UploadImageInput>): Promise<StoredUpload> {
  const file = args.input.file ?? inMemory(args.input.bytes ?? new Uint8Array(0));
  return inSpan('image.upload', { attributes: { 'imagegate.upload.bytes': file.size } }, () => upload(args, file));
}

const inMemory = (bytes: Uint8Array): UploadFile => ({
  size: bytes.byteLength,
  head: bytes,
  bytes: async () => bytes,
});

/**
 * This user's live upload of the same bytes, made a file uploaded on purpose when that is what is asked now (an
 * input or a mask uploaded again with POST /api/uploads joins the gallery); undefined when there is none.
 */
export async function existingUpload(deps: Pick<Deps, 'db' | 'blobs'>, userId: string, hash: string, role: UploadRole): Promise<ImageRecord | undefined> {
  const found = await deps.db.images.findUploadByContent(userId, hash);
  if (found === undefined) return undefined;
  if (role === 'file' && found.upload_role !== undefined && found.upload_role !== 'file' && (await deps.db.images.showUpload(userId, found.id))) {
    return toImageRecord({ ...found, upload_role: 'file' }, deps.blobs);
  }
  return toImageRecord(found, deps.blobs);
}

async function upload({ deps, ctx, input }: VerbArgs<UploadImageInput>, file: UploadFile): Promise<StoredUpload> {
  const field = input.field ?? 'file';
  const role = input.role ?? 'file';
  const header = checkImageHeader(file.head, file.size, field);
  // Identical bytes were checked and stored before: found by their hash, they are neither decoded nor stored again.
  const hash = await contentHash(file, deps.uploadMetadata);
  const existing = await existingUpload(deps, ctx.userId, hash, role);
  if (existing !== undefined) return { image: existing, created: false };
  // The decode and the store hold the file's pixels and then its bytes: a few at a time, each key in turn, so twenty
  // large uploads of one key neither fill the memory nor keep another key's small one waiting behind them all.
  const stored = await deps.uploadGates.decode.run(
    gateKey(ctx),
    async () => {
      // The decode that checks the file also makes its thumbnails: one trip to the CPU pool, reading a staged file
      // from disk where the codec can.
      const source = file.path !== undefined && deps.codec.readsFiles === true ? { path: file.path, head: file.head } : await file.bytes();
      const { thumbnails } = input.verified ?? (await verifyImageFile(deps.codec, source, field, ctx.signal, THUMBNAIL_REQUEST));
      const id = deps.ids.newId('img');
      const key = `${UPLOAD_KEY_PREFIX}${id}.${header.extension}`;
      const bytes = await storedBytes(deps, ctx, await file.bytes(), header.extension, field);
      const [, hasThumbnails] = await Promise.all([deps.blobs.put(key, bytes, header.contentType), storeThumbnails(deps.blobs, id, thumbnails)]);
      return { id, key, hasThumbnails };
    },
    ctx.signal,
  );
  const { id, key, hasThumbnails } = stored;
  const now = deps.clock.now();
  const row: ImageRow = {
    id,
    user_id: ctx.userId,
    prompt: uploadName(input.filename, role, header.extension, now),
    model: UPLOAD_MODEL,
    r2_key: key,
    width: header.width,
    height: header.height,
    cost: 0,
    is_deleted: false,
    created_at: now.toISOString(),
    deleted_at: null,
    template_id: null,
    metadata: null,
    parameters: {},
    kind: 'upload',
    ...(role === 'file' ? {} : { upload_role: role }),
    content_hash: hash,
    has_thumbnails: hasThumbnails,
    ...(ctx.key === undefined ? {} : { key_id: ctx.key.id }),
  };
  try {
    await deps.db.images.insert(row);
  } catch (error) {
    await deps.blobs.delete(key).catch(() => undefined);
    await deleteThumbnails(deps.blobs, id);
    throw error;
  }
  return { image: toImageRecord(row, deps.blobs), created: true };
}

/**
 * What is stored of an upload: by default without its location, device and other metadata (EXIF, XMP, text chunks;
 * the orientation kept), the pixels untouched, so a photo's GPS position is never served at a public URL.
 */
async function storedBytes(
  deps: Pick<Deps, 'uploadMetadata' | 'logger'>,
  ctx: RequestContext,
  bytes: Uint8Array,
  extension: 'png' | 'jpg' | 'webp',
  field: string,
): Promise<Uint8Array> {
  if (deps.uploadMetadata === 'keep') return bytes;
  const stripped = await stripMetadataFromBytes(bytes, extension === 'jpg' ? 'jpeg' : extension, field);
  if (stripped.removed.length > 0) deps.logger.debug({ requestId: ctx.requestId, removed: stripped.removed }, 'removed metadata from an upload');
  return stripped.bytes;
}
