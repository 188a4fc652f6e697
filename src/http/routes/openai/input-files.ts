import type { Deps, RequestContext } from '../../../domain/context.js';
import type { ImageRecord } from '../../../domain/images/image-record.js';
import type { GenerateImageInput } from '../../../domain/images/generate-image.js';
import { checkImageHeader } from '../../../domain/inputs/check-image-file.js';
import type { ImageHeader } from '../../../domain/inputs/image-header.js';
import { stageInputFiles, type InputFile } from '../../../domain/inputs/stage-input-files.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';
import { stagedFile } from '../../multipart.js';
import { asOpenAiError, generateAll, type FieldNames } from './generate-all.js';

/** A form file as the domain takes it, with what its header says (for the size an answer will have). */
export async function readInputFile(file: File, field: string): Promise<InputFile & { header: ImageHeader }> {
  const staged = await stagedFile(file);
  return { file: staged, filename: file.name, field, header: checkImageHeader(staged.head, staged.size, field) };
}

export interface FilesRequest {
  model: CatalogEntry;
  images: readonly InputFile[];
  mask?: InputFile;
  /** The generation, without its inputs. */
  request: GenerateImageInput;
  n: number;
  names: FieldNames;
}

/**
 * Edits and variations: the files are stored as uploads only once the whole request is known to be acceptable
 * (stageInputFiles), then the images are made from them one after another. When no image could be made at all (a
 * budget, a provider's refusal), the uploads are removed again: a refused request leaves nothing behind.
 */
export async function generateFromFiles(deps: Deps, ctx: RequestContext, input: FilesRequest): Promise<ImageRecord[]> {
  const staged = await stageFiles(deps, ctx, input);
  try {
    return await generateAll(deps, ctx, input.n, staged.request, input.names);
  } catch (error) {
    await staged.discard();
    throw error;
  }
}

/** The files stored as uploads, and the generation that uses them; `discard` removes them again. */
export async function stageFiles(
  deps: Deps,
  ctx: RequestContext,
  input: Omit<FilesRequest, 'n'>,
): Promise<{ request: GenerateImageInput; discard: () => Promise<void> }> {
  const { model, names } = input;
  const staged = await stageInputFiles({
    deps,
    ctx,
    input: { images: input.images, ...(input.mask === undefined ? {} : { mask: input.mask }), request: input.request },
  }).catch((error: unknown) => {
    throw asOpenAiError(error, model, names);
  });
  const inputs = { image_ids: staged.image_ids, ...(staged.mask_image_id === undefined ? {} : { mask_image_id: staged.mask_image_id }) };
  return { request: { ...input.request, ...inputs }, discard: () => staged.discard() };
}
