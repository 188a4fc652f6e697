import type { ImageRecord } from '../../../domain/images/image-record.js';
import type { ImageParameters } from '../../../ports/database.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';
import { estimateImageTokens, estimateInputImageTokens } from '../../../domain/models/pricing.js';
import type { ImageQualityTier } from '../../../domain/models/types.js';

/** OpenAI's ImagesResponse.Usage (openai/openai-node src/resources/images.ts, openai 7.57): tokens of one request. */
export interface OpenAiUsage {
  input_tokens: number;
  input_tokens_details: { image_tokens: number; text_tokens: number };
  output_tokens: number;
  output_tokens_details: { image_tokens: number; text_tokens: number };
  total_tokens: number;
}

export interface AnswerHead {
  created: number;
  background?: 'transparent' | 'opaque' | 'auto';
  output_format?: 'png' | 'jpeg' | 'webp';
  quality?: 'low' | 'medium' | 'high' | 'auto';
  size?: string;
  usage: OpenAiUsage;
}

/** Sizes of the files an edit or a variation was made from, for the input side of `usage`. */
export type InputSizes = readonly { width: number; height: number }[];

/**
 * Everything of OpenAI's ImagesResponse but `data`, on every answer, as OpenAI gives it for its GPT image models:
 * `size` and `output_format` of the images, and `quality` and `background` as drawn. Where the model decided and
 * imagegate cannot know what it chose (a model without quality levels, or `auto` on a model that can draw
 * transparency), the value is `auto`, an addition to OpenAI's values, rather than a guess. One request's images
 * share all of these.
 */
export function answerHead(created: number, images: readonly ImageRecord[], model: CatalogEntry | undefined, inputs: InputSizes): AnswerHead {
  const first = images[0];
  const usage = estimateUsage(images, model, inputs);
  if (first === undefined) return { created, usage };
  return {
    created,
    background: backgroundOf(first.parameters, model),
    output_format: first.parameters.output_format ?? 'png',
    quality: qualityOf(first.parameters, model) ?? 'auto',
    size: `${first.width}x${first.height}`,
    usage,
  };
}

/** The level asked for, else the one the provider is called at by default (token-priced GPT image models). */
export function qualityOf(parameters: Pick<ImageParameters, 'quality'>, model: CatalogEntry | undefined): ImageQualityTier | undefined {
  const asked = parameters.quality;
  if (asked !== undefined && asked !== 'auto') return asked;
  return model?.pricing.kind === 'tokens' ? model.pricing.quality : undefined;
}

export function backgroundOf(parameters: Pick<ImageParameters, 'background'>, model: CatalogEntry | undefined): 'transparent' | 'opaque' | 'auto' {
  const asked = parameters.background;
  if (asked === 'transparent' || asked === 'opaque') return asked;
  return model?.outputs.transparent_background === true ? 'auto' : 'opaque';
}

const ZERO_USAGE: OpenAiUsage = {
  input_tokens: 0,
  input_tokens_details: { image_tokens: 0, text_tokens: 0 },
  output_tokens: 0,
  output_tokens_details: { image_tokens: 0, text_tokens: 0 },
  total_tokens: 0,
};

/**
 * `usage`, always present as OpenAI's clients read it. Tokens exist only for token-billed models (OpenAI's GPT image
 * models); for them this is an estimate (what the provider reported is used for the recorded cost, but is not kept
 * on the image record): each image is one provider call, billed its prompt (about 4 characters a token, OpenAI's
 * rule of thumb), its input images and its output, counted with the same formulas the cost estimate uses
 * (estimateImageTokens, estimateInputImageTokens). Every other model counts no tokens: zeros.
 */
export function estimateUsage(images: readonly ImageRecord[], model: CatalogEntry | undefined, inputs: InputSizes): OpenAiUsage {
  if (model?.pricing.kind !== 'tokens') return ZERO_USAGE;
  const tier = model.pricing.quality;
  const inputImageTokens = inputs.reduce((sum, input) => sum + estimateInputImageTokens(input.width, input.height), 0);
  let text = 0;
  let imageIn = 0;
  let imageOut = 0;
  for (const image of images) {
    text += Math.ceil(image.prompt.length / 4);
    imageIn += inputImageTokens;
    imageOut += estimateImageTokens(qualityOf(image.parameters, model) ?? tier, image.width, image.height);
  }
  return {
    input_tokens: text + imageIn,
    input_tokens_details: { image_tokens: imageIn, text_tokens: text },
    output_tokens: imageOut,
    output_tokens_details: { image_tokens: imageOut, text_tokens: 0 },
    total_tokens: text + imageIn + imageOut,
  };
}
