import { invalidParameter } from '../../../domain/errors.js';
import type { GenerationOptions } from '../../../domain/images/generation-settings.js';

type Maybe<T> = T | null | undefined;

export interface OpenAiOutputFields {
  quality?: Maybe<'auto' | 'low' | 'medium' | 'high' | 'standard' | 'hd'>;
  background?: Maybe<'transparent' | 'opaque' | 'auto'>;
  output_format?: Maybe<'png' | 'jpeg' | 'webp'>;
  output_compression?: Maybe<number>;
  input_fidelity?: Maybe<'low' | 'high'>;
}

/**
 * Refuses `stream` and `partial_images` before anything is made or charged: OpenAI answers them with
 * server-sent events, and no model here draws partial images, so a client asking for a stream would wait for
 * events that never come. `stream: false` and `partial_images: 0` ask for what happens anyway.
 */
export function refuseStreaming(stream: Maybe<boolean>, partialImages: Maybe<number>): void {
  if (stream === true) {
    throw invalidParameter('stream', 'imagegate does not stream images (no model here draws partial images): send stream false or leave it out, and the answer holds the finished images');
  }
  if (partialImages !== undefined && partialImages !== null && partialImages > 0) {
    throw invalidParameter('partial_images', 'partial images come only with stream, which imagegate does not do: send partial_images 0 or leave it out');
  }
}

/** `style` and `moderation: low` ask for what no model here can do. */
export function refuseGenerationExtras(style: Maybe<string>, moderation: Maybe<'auto' | 'low'>): void {
  if (style !== undefined && style !== null) throw invalidParameter('style', 'style is for dall-e-3 only, and no model here takes it: leave it out and say the style in the prompt');
  if (moderation === 'low') {
    throw invalidParameter('moderation', "imagegate cannot ask a provider to filter less: send moderation auto (each provider's standard moderation) or leave it out");
  }
}

/**
 * The output fields as the domain takes them; the domain refuses what the model cannot do, naming the field.
 * OpenAI's `standard` is dall-e's name for its one, default quality: the model's default here, as `auto` is.
 */
export function outputOptions(fields: OpenAiOutputFields): GenerationOptions {
  const { quality, background, output_format: format, output_compression: compression, input_fidelity: fidelity } = fields;
  if (quality === 'hd') throw invalidParameter('quality', 'hd is for dall-e-3 only: send low, medium or high (for models that list them in GET /api/models) or auto');
  return {
    ...(quality === undefined || quality === null ? {} : { quality: quality === 'standard' ? 'auto' : quality }),
    ...(background === undefined || background === null ? {} : { background }),
    ...(format === undefined || format === null ? {} : { output_format: format }),
    ...(compression === undefined || compression === null ? {} : { output_compression: compression }),
    ...(fidelity === undefined || fidelity === null ? {} : { input_fidelity: fidelity }),
  };
}
