import type { Context, TypedResponse } from 'hono';
import type { Deps } from '../../../domain/context.js';
import type { ImageRecord } from '../../../domain/images/image-record.js';
import { deprecationHeaders } from '../../deprecation.js';
import { b64Answer, streamedJson } from './b64-answer.js';
import type { OpenAiImagesResponseSchema } from './schemas.js';

export type OpenAiImagesResponse = ReturnType<typeof OpenAiImagesResponseSchema.parse>;
type Head = Omit<OpenAiImagesResponse, 'data'>;

/**
 * OpenAI's ImagesResponse (openai/openai-node src/resources/images.ts): `created`, `data` with a `url` or a
 * `b64_json` each, and, as OpenAI gives them for its GPT image models, `output_format` and `size` of the images,
 * `quality` and `background` when a level or a background was asked for (an `auto` is left out: what it
 * resolved to is the provider's, not known here). One request's images share all of these.
 */
export function answerHead(created: number, images: readonly ImageRecord[]): Head {
  const first = images[0];
  if (first === undefined) return { created };
  const { output_format: format, quality, background } = first.parameters;
  return {
    created,
    output_format: format ?? 'png',
    size: `${first.width}x${first.height}`,
    ...(quality === undefined || quality === 'auto' ? {} : { quality }),
    ...(background === undefined || background === 'auto' ? {} : { background }),
  };
}

/** The answer of every /v1/images operation: each image's URL, or (b64_json) the images themselves, streamed. */
export async function imagesAnswer(
  c: Context,
  deps: Pick<Deps, 'blobs' | 'codec' | 'catalog' | 'clock'>,
  images: ImageRecord[],
  responseFormat: 'url' | 'b64_json' | null | undefined,
  signal?: AbortSignal,
): Promise<TypedResponse<OpenAiImagesResponse, 200, 'json'>> {
  const first = images[0];
  const headers = first === undefined ? {} : deprecationHeaders(deps.catalog.find(first.model), deps.clock.now());
  const head = answerHead(Math.floor(deps.clock.now().getTime() / 1000), images);
  if (responseFormat !== 'b64_json') return streamedJson<OpenAiImagesResponse>(c.json({ ...head, data: images.map((image) => ({ url: image.r2_url })) }, 200, headers));
  const stream = await b64Answer(deps, head, images, signal);
  return streamedJson<OpenAiImagesResponse>(c.body(stream, 200, { ...headers, 'content-type': 'application/json' }));
}
