import type { ImageParameters } from '../../ports/database.js';
import { invalidParameter } from '../errors.js';
import type { CatalogEntry } from '../models/catalog.js';
import type { OutputFormat } from '../models/types.js';

/** What the caller asked of the output beyond its size, checked against the model: honoured or refused, never ignored. */
export interface OutputSettings {
  format: OutputFormat;
  compression?: number;
  quality?: NonNullable<ImageParameters['quality']>;
  background?: NonNullable<ImageParameters['background']>;
  inputFidelity?: NonNullable<ImageParameters['input_fidelity']>;
  /** Passed on to providers that take it (OpenAI); the others have their own fixed moderation and leave it aside. */
  moderation?: NonNullable<ImageParameters['moderation']>;
  /** Partial images to stream while it draws (1..3), where the provider can; set only when more than 0 were asked. */
  partialImages?: number;
}

/** OpenAI's limit (ImageGenerateParams.partial_images: "Value must be between 0 and 3"). */
export const MAX_PARTIAL_IMAGES = 3;

export function resolveOutput(model: CatalogEntry, given: ImageParameters): OutputSettings {
  const format = given.output_format ?? 'png';
  if (given.output_compression !== undefined && format === 'png') {
    throw invalidParameter(
      'output_compression',
      'output_compression applies to jpeg and webp: send output_format jpeg or webp with it, or leave it out for png',
    );
  }
  const { quality, background } = given;
  if (quality !== undefined && quality !== 'auto' && !model.outputs.quality.includes(quality)) {
    const can =
      model.outputs.quality.length === 0 ? 'its quality is fixed, so send auto or leave quality out' : `it takes ${model.outputs.quality.join(', ')} or auto`;
    throw invalidParameter('quality', `model ${model.id} does not take quality ${quality}: ${can}`);
  }
  if (background === 'transparent') {
    if (!model.outputs.transparent_background) {
      throw invalidParameter(
        'background',
        `model ${model.id} cannot draw on a transparent background (outputs.transparent_background is false in GET /api/models): send opaque or auto`,
      );
    }
    if (format === 'jpeg') throw invalidParameter('background', 'jpeg has no transparency: send output_format png or webp with background transparent');
  }
  if (given.input_fidelity !== undefined && model.inputs.input_fidelity !== true) {
    throw invalidParameter('input_fidelity', `model ${model.id} does not take input_fidelity`);
  }
  return {
    format,
    ...(given.output_compression === undefined ? {} : { compression: given.output_compression }),
    ...(quality === undefined ? {} : { quality }),
    ...(background === undefined ? {} : { background }),
    ...(given.input_fidelity === undefined ? {} : { inputFidelity: given.input_fidelity }),
    ...(given.moderation === undefined ? {} : { moderation: given.moderation }),
    // Never refused for a model that draws no partials: OpenAI's contract allows fewer partials than asked.
    ...(given.partial_images === undefined || given.partial_images <= 0
      ? {}
      : { partialImages: Math.min(MAX_PARTIAL_IMAGES, Math.floor(given.partial_images)) }),
  };
}

/** Refuses a format this runtime cannot store (Workers: PNG only), saying which it can. */
export function checkOutputFormat(format: OutputFormat, writable: readonly OutputFormat[] | undefined): void {
  if (writable === undefined || writable.includes(format)) return;
  throw invalidParameter(
    'output_format',
    `this server stores ${writable.join(', ')} images only (it runs without an image library for ${format}): send output_format ${writable.join(' or ')}, or leave it out`,
  );
}
