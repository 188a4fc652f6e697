import type { VerifiedImage } from '../../ports/image-codec.js';
import type { VerbArgs } from '../context.js';
import { deleteThumbnails, THUMBNAIL_REQUEST } from '../images/thumbnails.js';
import { planGeneration, type GenerationRequest } from '../images/plan-generation.js';
import { checkImageHeader, verifyImageFile } from './check-image-file.js';
import type { LoadedInput } from './load-inputs.js';
import { existingUpload, storeUpload } from './upload-image.js';
import { gateKey } from './fair-gate.js';
import { contentHash, type UploadFile } from './upload-identity.js';

/** A file sent with a request (OpenAI's edits and variations), named by its form field in errors. */
export interface InputFile {
  /** As staged while the request came in: read whole only to be stored, one file at a time per key (the decode gate). */
  file: UploadFile;
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
 *
 * The images are stored as `input`s and the mask as a `mask` (upload_role): the gallery lists neither unless asked
 * for uploads. A file this user already has (the same bytes: the same room.png sent with every edit) is that upload,
 * neither decoded nor stored again, and never removed by `discard`: it was not this request's to remove.
 */
export async function stageInputFiles({
  deps,
  ctx,
  input,
}: VerbArgs<{ images: readonly InputFile[]; mask?: InputFile; request: GenerationRequest }>): Promise<StagedInputs> {
  const pending = (input: InputFile, index: number, name: string): LoadedInput => {
    const header = checkImageHeader(input.file.head, input.file.size, input.field);
    // Planning checks what the headers say (sizes, transparency, how many): it never reads the pixels, so the file's
    // first bytes stand in for it until it is stored and loaded from storage for the provider.
    return {
      id: `pending_${index}`,
      bytes: input.file.head,
      contentType: header.contentType,
      width: header.width,
      height: header.height,
      hasAlpha: header.hasAlpha,
      filename: `${name}.${header.extension}`,
    };
  };
  const images = input.images.map((file, index) => pending(file, index, `image-${index}`));
  const mask = input.mask === undefined ? undefined : pending(input.mask, images.length, 'mask');
  await planGeneration(deps, ctx.userId, input.request, { images, ...(mask === undefined ? {} : { mask }) });

  const files = (input.mask === undefined ? input.images : [...input.images, input.mask]).map((file, index) => ({
    ...file,
    role: index < input.images.length ? ('input' as const) : ('mask' as const),
  }));
  const known = await Promise.all(files.map(async ({ file, role }) => existingUpload(deps, ctx.userId, await contentHash(file, deps.uploadMetadata), role)));
  // Each file's thumbnails come from the decode that checks it: the files become gallery images once stored.
  const verified: (VerifiedImage | undefined)[] = [];
  // Each decode takes its turn with the uploads' (the same gate), so edits cannot crowd out other keys either.
  for (const [index, { file, field }] of files.entries()) {
    if (known[index] !== undefined) {
      verified.push(undefined);
      continue;
    }
    const decode = async () =>
      verifyImageFile(
        deps.codec,
        file.path !== undefined && deps.codec.readsFiles === true ? { path: file.path, head: file.head } : await file.bytes(),
        field,
        ctx.signal,
        THUMBNAIL_REQUEST,
      );
    verified.push(await deps.uploadGates.decode.run(gateKey(ctx), decode, ctx.signal));
  }
  const stored: { id: string; key: string }[] = [];
  const discard = async (): Promise<void> => {
    for (const { id, key } of stored) {
      await deps.db.images.discardUpload(ctx.userId, id).catch(() => false);
      await deps.blobs.delete(key).catch(() => undefined);
      await deleteThumbnails(deps.blobs, id);
    }
  };
  const ids: string[] = [];
  try {
    for (const [index, file] of files.entries()) {
      const found = known[index];
      if (found !== undefined) {
        ids.push(found.id);
        continue;
      }
      // Looked up again as it is stored: the same bytes may have come in meanwhile (another request, or twice in this one).
      const upload = await storeUpload({
        deps,
        ctx,
        input: { file: file.file, filename: file.filename, field: file.field, role: file.role, verified: { thumbnails: verified[index]?.thumbnails } },
      });
      ids.push(upload.image.id);
      if (upload.created) stored.push({ id: upload.image.id, key: upload.image.r2_key });
    }
  } catch (error) {
    await discard();
    throw error;
  }
  const maskId = input.mask === undefined ? undefined : ids.pop();
  return { image_ids: ids, ...(maskId === undefined ? {} : { mask_image_id: maskId }), discard };
}
