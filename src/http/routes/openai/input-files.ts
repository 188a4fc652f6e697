import type { Deps, RequestContext } from '../../../domain/context.js';
import type { GenerationOptions } from '../../../domain/images/generation-settings.js';
import { resolveSettings } from '../../../domain/images/generation-settings.js';
import type { ImageRecord } from '../../../domain/images/image-record.js';
import { checkImageFile } from '../../../domain/inputs/check-image-file.js';
import type { ImageHeader } from '../../../domain/inputs/image-header.js';
import { uploadImage } from '../../../domain/inputs/upload-image.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';
import { fileBytes } from '../../multipart.js';
import { asOpenAiError, type FieldNames } from './generate-all.js';

/** A file of the form, read and checked from its header (a PNG, JPEG or WebP of a size the service decodes). */
export interface InputFile {
  bytes: Uint8Array;
  filename: string;
  /** The form field, as errors name it: `image`, `image[1]`, `mask`. */
  field: string;
  header: ImageHeader;
}

export async function readInputFile(file: File, field: string): Promise<InputFile> {
  const bytes = await fileBytes(file);
  return { bytes, filename: file.name, field, header: checkImageFile(bytes, field) };
}

/**
 * What the domain would refuse about the size and the output settings, asked before any file is stored: a
 * request refused there would otherwise leave its uploads behind. The seed is irrelevant to a check.
 */
export function checkSettings(model: CatalogEntry, options: GenerationOptions, names: FieldNames): void {
  try {
    resolveSettings(model, [options], () => 0);
  } catch (error) {
    throw asOpenAiError(error, model, names);
  }
}

/**
 * Stores each file as an upload (kind `upload`, in the caller's gallery, byte for byte), then runs `make` with
 * their ids. When `make` fails before any image was made (a budget, a provider that refuses, a file that does
 * not decode), the uploads of this request are deleted again: a refused request leaves nothing in the gallery.
 */
export async function withUploads(
  deps: Deps,
  ctx: RequestContext,
  files: readonly InputFile[],
  signal: AbortSignal,
  make: (ids: string[]) => Promise<ImageRecord[]>,
): Promise<ImageRecord[]> {
  const ids: string[] = [];
  try {
    for (const file of files) {
      const upload = await uploadImage({ deps, ctx: { ...ctx, signal }, input: { bytes: file.bytes, filename: file.filename, field: file.field } });
      ids.push(upload.id);
    }
    return await make(ids);
  } catch (error) {
    const at = deps.clock.now().toISOString();
    await Promise.all(ids.map((id) => deps.db.images.softDelete(ctx.userId, id, at).catch(() => false)));
    throw error;
  }
}
