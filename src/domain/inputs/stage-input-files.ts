import type { VerifiedImage } from '../../ports/image-codec.js';
import type { VerbArgs } from '../context.js';
import { deleteThumbnails, THUMBNAIL_REQUEST } from '../images/thumbnails.js';
import { planGeneration, type GenerationRequest } from '../images/plan-generation.js';
import { checkImageFile, verifyImageFile } from './check-image-file.js';
import type { LoadedInput } from './load-inputs.js';
import { uploadImage } from './upload-image.js';

/** A file sent with a request (OpenAI's edits and variations), named by its form field in errors. */
export interface InputFile {
  bytes: Uint8Array;
  filename: string;
  /** `image`, `image[1]`, `mask`. */
  field: string;
}

export interface StagedInputs {
  image_ids: string[];
  mask_image_id?: string;
  /** Removes the stored files again (record and object), for a request that then made nothing. */
  discard(): Promise<void>;
}

/**
 * Files that come with a generation request, stored as uploads only once the whole request is known to be
 * acceptable: the generation is planned first with the files in memory (the model takes this many images, a mask,
 * the sizes match, every option and the metadata are fine), then each file is decoded in full in the CPU pool, and
 * only then stored. A refused request stores nothing; `discard` undoes the storing when the generation itself then
 * fails before making anything (a budget, a provider's refusal).
 */
export async function stageInputFiles({ deps, ctx, input }: VerbArgs<{ images: readonly InputFile[]; mask?: InputFile; request: GenerationRequest }>): Promise<StagedInputs> {
  const pending = (file: InputFile, index: number, name: string): LoadedInput => {
    const header = checkImageFile(file.bytes, file.field);
    return { id: `pending_${index}`, bytes: file.bytes, contentType: header.contentType, width: header.width, height: header.height, hasAlpha: header.hasAlpha, filename: `${name}.${header.extension}` };
  };
  const images = input.images.map((file, index) => pending(file, index, `image-${index}`));
  const mask = input.mask === undefined ? undefined : pending(input.mask, images.length, 'mask');
  await planGeneration(deps, ctx.userId, input.request, { images, ...(mask === undefined ? {} : { mask }) });

  const files = input.mask === undefined ? input.images : [...input.images, input.mask];
  // Each file's thumbnails come from the decode that checks it: the files become gallery images once stored.
  const verified: VerifiedImage[] = [];
  for (const file of files) verified.push(await verifyImageFile(deps.codec, file.bytes, file.field, ctx.signal, THUMBNAIL_REQUEST));
  const stored: { id: string; key: string }[] = [];
  const discard = async (): Promise<void> => {
    for (const { id, key } of stored) {
      await deps.db.images.discardUpload(ctx.userId, id).catch(() => false);
      await deps.blobs.delete(key).catch(() => undefined);
      await deleteThumbnails(deps.blobs, id);
    }
  };
  try {
    for (const [index, file] of files.entries()) {
      const upload = await uploadImage({ deps, ctx, input: { bytes: file.bytes, filename: file.filename, field: file.field, verified: { thumbnails: verified[index]?.thumbnails } } });
      stored.push({ id: upload.id, key: upload.r2_key });
    }
  } catch (error) {
    await discard();
    throw error;
  }
  const ids = stored.map((file) => file.id);
  const maskId = input.mask === undefined ? undefined : ids.pop();
  return { image_ids: ids, ...(maskId === undefined ? {} : { mask_image_id: maskId }), discard };
}
