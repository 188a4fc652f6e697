import type { Deps, RequestContext } from '../../../domain/context.js';
import { ApiError, invalidParameter } from '../../../domain/errors.js';
import { generateImage, type GenerateImageInput } from '../../../domain/images/generate-image.js';
import type { ImageRecord } from '../../../domain/images/image-record.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';

/** The domain's names of fields an OpenAI client sends under other names (`image_ids` arrive as `image`). */
export type FieldNames = Readonly<Record<string, string>>;

/**
 * One `generateImage` per requested image, one after another, each reserving its own cost: the first refusal (a
 * bad prompt or size, a budget) comes before any provider call. A failure after that (a budget that runs out
 * part-way) answers with the images already made: they were paid for, and a client that gets nothing back would
 * ask again and pay again. The first refusal names the field as the OpenAI client sent it.
 */
export async function generateAll(deps: Deps, ctx: RequestContext, n: number, input: GenerateImageInput, names: FieldNames = {}): Promise<ImageRecord[]> {
  const images: ImageRecord[] = [];
  for (let i = 0; i < n; i += 1) {
    try {
      images.push(await generateImage({ deps, ctx, input }));
    } catch (error) {
      if (images.length === 0) throw asOpenAiError(error, deps.catalog.find(input.model ?? deps.catalog.defaultModelId), names);
      deps.logger.warn(
        { requestId: ctx.requestId, made: images.length, wanted: n, err: error instanceof Error ? error.message : String(error) },
        'answering with the images made before a failure',
      );
      break;
    }
  }
  return images;
}

export function parseSize(size: string | null | undefined): { width?: number; height?: number } {
  if (size === undefined || size === null || size === 'auto') return {};
  const [width, height] = size.split('x').map(Number);
  return { width, height };
}

/** The caller's end-user id, kept where OpenAI keeps it out of the picture: in the image's metadata. */
export const userMetadata = (user: string | null | undefined): { metadata?: Record<string, unknown> } =>
  user === undefined || user === null ? {} : { metadata: { openai_user: user } };

/**
 * OpenAI clients send `size`, not width and height: a size the model cannot make is an error about `size`, naming
 * the sizes it can. Other fields the domain names its own way are renamed (`names`).
 */
export function asOpenAiError(error: unknown, model: CatalogEntry | undefined, names: FieldNames): unknown {
  if (!(error instanceof ApiError) || error.code !== 'INVALID_PARAMETER') return error;
  const details = typeof error.details === 'object' ? error.details : {};
  const message = typeof details.message === 'string' ? details.message : error.message;
  if (typeof details.field === 'string' && names[details.field] !== undefined) return invalidParameter(names[details.field] ?? details.field, message);
  if ((details.field !== 'width' && details.field !== 'height') || model === undefined) return error;
  const can =
    model.sizes !== undefined
      ? `one of ${model.sizes.join(', ')}`
      : `WIDTHxHEIGHT with width ${model.min_size} to ${model.max_width} and height ${model.min_size} to ${model.max_height}${sizeRuleText(model)} (default ${model.default_width}x${model.default_height})`;
  return invalidParameter('size', `model ${model.id} cannot make this size (${message}); send size ${can}, or auto`);
}

/**
 * A model's further size limits in words. For gpt-image-2 they are OpenAI's (openai-node src/resources/images.ts,
 * ImageGenerateParams.size: sides "divisible by 16", aspect ratio "between 1:3 and 3:1", at most 3840x2160, within
 * "the model's current pixel and edge limits"), as the catalogue keeps them (adapters/providers/openai/openai-models.ts).
 */
function sizeRuleText(model: CatalogEntry): string {
  const rule = model.size_rule;
  if (rule === undefined) return '';
  const parts = [
    rule.multiple_of === undefined ? undefined : `each a multiple of ${rule.multiple_of}`,
    rule.min_pixels === undefined && rule.max_pixels === undefined
      ? undefined
      : `${(rule.min_pixels ?? 1).toLocaleString('en-US')} to ${(rule.max_pixels ?? Number.POSITIVE_INFINITY).toLocaleString('en-US')} pixels`,
    rule.max_aspect_ratio === undefined ? undefined : `the longer side at most ${rule.max_aspect_ratio} times the shorter`,
  ].filter((part): part is string => part !== undefined);
  return parts.length === 0 ? '' : `, ${parts.join(', ')}`;
}
