import { invalidParameter } from '../../../domain/errors.js';
import type { GenerationOptions } from '../../../domain/images/generation-settings.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';

type Maybe<T> = T | null | undefined;

export interface OpenAiOutputFields {
  quality?: Maybe<'auto' | 'low' | 'medium' | 'high' | 'standard' | 'hd'>;
  background?: Maybe<'transparent' | 'opaque' | 'auto'>;
  output_format?: Maybe<'png' | 'jpeg' | 'webp'>;
  output_compression?: Maybe<number>;
  input_fidelity?: Maybe<'low' | 'high'>;
  moderation?: Maybe<'auto' | 'low'>;
  partial_images?: Maybe<number>;
  style?: Maybe<'vivid' | 'natural'>;
}

/**
 * `partial_images` comes with `stream` only, as OpenAI defines it: without a stream there is nothing to send them in.
 * With a stream, fewer partials than asked may come (OpenAI's contract says so): OpenAI's GPT image models stream
 * them; every other model's stream carries the completed event alone.
 */
export function checkPartialImages(stream: boolean, partialImages: Maybe<number>): void {
  if (!stream && partialImages !== undefined && partialImages !== null && partialImages > 0) {
    throw invalidParameter('partial_images', 'partial images come only with stream: true; send stream true, or partial_images 0');
  }
}

/** What a request asks for, as the domain takes it, and what was not done as asked (a `Warning` each). */
export interface OpenAiOptions {
  options: GenerationOptions;
  warnings: string[];
}

/**
 * The output fields as the domain takes them; the domain refuses what the model cannot do, naming the field.
 *
 * DALL-E-era clients (LangChain's DallEAPIWrapper sends `style: "vivid"` and `quality: "standard"` on every call)
 * must keep working now that dall-e-3 is shut down, so its two fields are mapped to the nearest setting rather than
 * refused: `standard` is dall-e's name for its one default quality (the model's default here, as `auto` is, no
 * warning); `hd` is the model's `high` where it lists one, else its default with a warning; `style` has no
 * counterpart on any model here and is left aside with a warning (say the style in the prompt). `moderation` goes
 * to the providers that take it (OpenAI's generations); the others moderate at their own fixed level.
 */
export function openAiOptions(fields: OpenAiOutputFields, model: CatalogEntry | undefined): OpenAiOptions {
  const {
    quality,
    background,
    output_format: format,
    output_compression: compression,
    input_fidelity: fidelity,
    moderation,
    partial_images: partials,
    style,
  } = fields;
  const warnings: string[] = [];
  let level: GenerationOptions['quality'];
  if (quality === 'hd') {
    if (model?.outputs.quality.includes('high') === true) level = 'high';
    else {
      level = 'auto';
      warnings.push(`quality hd is dall-e-3's; ${model?.id ?? 'this model'} has no high quality, so it drew at its default quality`);
    }
  } else if (quality === 'standard') level = 'auto';
  else if (quality !== undefined && quality !== null) level = quality;
  if (style !== undefined && style !== null)
    warnings.push(`style ${style} is dall-e-3's and no model here has styles, so it was left aside; say the style in the prompt`);
  return {
    options: {
      ...(level === undefined ? {} : { quality: level }),
      ...(background === undefined || background === null ? {} : { background }),
      ...(format === undefined || format === null ? {} : { output_format: format }),
      ...(compression === undefined || compression === null ? {} : { output_compression: compression }),
      ...(fidelity === undefined || fidelity === null ? {} : { input_fidelity: fidelity }),
      ...(moderation === undefined || moderation === null ? {} : { moderation }),
      ...(partials === undefined || partials === null || partials === 0 ? {} : { partial_images: partials }),
    },
    warnings,
  };
}

/**
 * RFC 9111's `Warning` header (section 5.5: `299 - "text"`, 299 being a persistent miscellaneous warning), one
 * per thing not done as asked. RFC 9111 marks the header obsolete for caches; it is still the one standard place a
 * client library or a proxy log shows such a note, and the body keeps OpenAI's shape exactly.
 */
export function warningHeaders(warnings: readonly string[]): Record<string, string> {
  if (warnings.length === 0) return {};
  return { Warning: warnings.map((text) => `299 - "${text.replace(/["\\]/g, "'")}"`).join(', ') };
}
