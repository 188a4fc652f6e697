import type { InputImage } from '../../ports/image-provider.js';
import type { Deps } from '../context.js';
import { invalidParameter, notFound } from '../errors.js';
import type { CatalogEntry } from '../models/catalog.js';
import { checkImageFile } from './check-image-file.js';
import { MAX_INPUT_IMAGES } from './input-limits.js';

export interface InputRequest {
  image_ids?: readonly string[];
  mask_image_id?: string;
  strength?: number;
}

/** A gallery image given to a model, with its bytes read from storage. */
export interface LoadedInput extends InputImage {
  id: string;
  /** The header says it has transparency (what a mask needs). */
  hasAlpha: boolean;
}

/** Files not stored yet (their ids are placeholders), checked by the same rules before anything is stored. */
export interface GivenInputs {
  images: LoadedInput[];
  mask?: LoadedInput;
}

export interface PlannedInputs {
  images: LoadedInput[];
  mask?: LoadedInput;
  strength?: number;
}

/**
 * Checks the request's input images against what the model takes (its `inputs` in the catalogue), then loads them:
 * all of it before any provider is called or any cost reserved. Each id must be a live image of the caller (another
 * user's is not found, as everywhere); the mask must have transparency and the first image's size.
 */
export async function loadInputs(
  deps: Pick<Deps, 'db' | 'blobs'>,
  userId: string,
  model: CatalogEntry,
  request: InputRequest,
  given?: GivenInputs,
): Promise<PlannedInputs> {
  const ids = given?.images.map((image) => image.id) ?? request.image_ids ?? [];
  const maskId = given === undefined ? request.mask_image_id : given.mask?.id;
  const { inputs } = model;
  if (ids.length > MAX_INPUT_IMAGES) throw invalidParameter('image_ids', `at most ${MAX_INPUT_IMAGES} input images per request (got ${ids.length})`);
  if (ids.length > 0 && inputs.max_images === 0) {
    throw invalidParameter(
      'image_ids',
      `model ${model.id} takes no input images (its inputs.max_images is 0 in GET /api/models): pick a model that takes images, or send none`,
    );
  }
  if (ids.length > inputs.max_images)
    throw invalidParameter(
      'image_ids',
      `model ${model.id} takes at most ${inputs.max_images} input image${inputs.max_images === 1 ? '' : 's'} (got ${ids.length})`,
    );
  if (new Set(ids).size !== ids.length) throw invalidParameter('image_ids', 'image_ids names the same image twice: send each once');
  if (maskId !== undefined) {
    if (!inputs.mask) throw invalidParameter('mask_image_id', `model ${model.id} does not take a mask (its inputs.mask is false in GET /api/models)`);
    if (ids.length === 0) throw invalidParameter('mask_image_id', 'a mask needs an image to edit: send image_ids too (the mask applies to the first)');
  }
  if (request.strength !== undefined) {
    if (!inputs.strength) throw invalidParameter('strength', `model ${model.id} does not take a strength (its inputs.strength is false in GET /api/models)`);
    if (ids.length === 0) throw invalidParameter('strength', 'strength says how far to move from an input image: send image_ids too');
  }

  const images = given?.images ?? (await Promise.all(ids.map((id, index) => loadOne(deps, userId, id, 'image_ids', `image-${index}`))));
  const first = images[0];
  let mask: LoadedInput | undefined;
  if (maskId !== undefined && first !== undefined) {
    mask = given?.mask ?? (await loadOne(deps, userId, maskId, 'mask_image_id', 'mask'));
    if (mask.width !== first.width || mask.height !== first.height) {
      throw invalidParameter(
        'mask_image_id',
        `the mask is ${mask.width}x${mask.height} but the image it applies to is ${first.width}x${first.height}: send a mask of the same size`,
      );
    }
    if (!mask.hasAlpha) {
      throw invalidParameter('mask_image_id', 'the mask has no transparency: send a PNG (or WebP) whose fully transparent pixels mark the area to change');
    }
  }
  return { images, ...(mask === undefined ? {} : { mask }), ...(request.strength === undefined ? {} : { strength: request.strength }) };
}

async function loadOne(deps: Pick<Deps, 'db' | 'blobs'>, userId: string, id: string, field: string, name: string): Promise<LoadedInput> {
  const row = await deps.db.images.findLive(userId, id);
  if (row === undefined) throw notFound('Image', field, id);
  const blob = await deps.blobs.get(row.r2_key);
  if (blob === undefined) throw notFound('Image file', field, id);
  // The type and size come from the bytes, not the record: what the provider gets is what is described.
  const header = checkImageFile(blob.bytes, field);
  return {
    id,
    bytes: blob.bytes,
    contentType: header.contentType,
    width: header.width,
    height: header.height,
    hasAlpha: header.hasAlpha,
    filename: `${name}.${header.extension}`,
  };
}
