import type { ImageRow } from '../../ports/database.js';
import type { EncodedThumbnail } from '../../ports/image-codec.js';
import type { VerbArgs } from '../context.js';
import { toImageRecord, type ImageRecord } from '../images/image-record.js';
import { deleteThumbnails, storeThumbnails, THUMBNAIL_REQUEST } from '../images/thumbnails.js';
import { checkImageFile, verifyImageFile } from './check-image-file.js';
import { inSpan } from '../../ports/tracer.js';

/** The `model` of an uploaded image: still a string, so clients written to the spec keep working. */
export const UPLOAD_MODEL = 'upload';
export const UPLOAD_KEY_PREFIX = 'uploads/';

export interface UploadImageInput {
  bytes: Uint8Array;
  /** The file's name as sent, kept as the record's prompt (no path, at most 200 characters); empty when none. */
  filename?: string;
  /** The request field the bytes came in, named in errors (`file`, `image`, `data`). */
  field?: string;
  /**
   * Already checked and decoded by the caller (stageInputFiles), with the thumbnails that decode made (verify with
   * THUMBNAIL_REQUEST): not decoded a second time.
   */
  verified?: { thumbnails?: readonly EncodedThumbnail[] };
}

/**
 * Puts a caller's PNG, JPEG or WebP into the gallery as it is (byte for byte, so an edit keeps exactly its pixels),
 * as an image of kind `upload` costing nothing. Checked from the header, then decoded in full off the event loop,
 * before anything is stored.
 */
export function uploadImage(args: VerbArgs<UploadImageInput>): Promise<ImageRecord> {
  return inSpan('image.upload', { attributes: { 'imagegate.upload.bytes': args.input.bytes.byteLength } }, () => upload(args));
}

async function upload({ deps, ctx, input }: VerbArgs<UploadImageInput>): Promise<ImageRecord> {
  const field = input.field ?? 'file';
  const header = checkImageFile(input.bytes, field);
  // The decode that checks the file also makes its thumbnails: one trip to the CPU pool.
  const { thumbnails } = input.verified ?? (await verifyImageFile(deps.codec, input.bytes, field, ctx.signal, THUMBNAIL_REQUEST));
  const id = deps.ids.newId('img');
  const key = `${UPLOAD_KEY_PREFIX}${id}.${header.extension}`;
  const [, hasThumbnails] = await Promise.all([deps.blobs.put(key, input.bytes, header.contentType), storeThumbnails(deps.blobs, id, thumbnails)]);
  const row: ImageRow = {
    id,
    user_id: ctx.userId,
    prompt: cleanFilename(input.filename),
    model: UPLOAD_MODEL,
    r2_key: key,
    width: header.width,
    height: header.height,
    cost: 0,
    is_deleted: false,
    created_at: deps.clock.now().toISOString(),
    deleted_at: null,
    template_id: null,
    metadata: null,
    parameters: {},
    kind: 'upload',
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
  return toImageRecord(row, deps.blobs);
}

/** The name without any folder a browser may send, control characters or NUL (PostgreSQL text cannot hold it). */
function cleanFilename(name: string | undefined): string {
  if (name === undefined) return '';
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200);
}
