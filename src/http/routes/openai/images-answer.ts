import type { Context, TypedResponse } from 'hono';
import type { Deps } from '../../../domain/context.js';
import type { ImageRecord } from '../../../domain/images/image-record.js';
import { deprecationHeaders } from '../../deprecation.js';
import { answerHead, type InputSizes } from './answer-head.js';
import { b64Answer, streamedJson } from './b64-answer.js';
import { warningHeaders } from './openai-options.js';
import type { OpenAiImagesResponseSchema } from './schemas.js';

export type OpenAiImagesResponse = ReturnType<typeof OpenAiImagesResponseSchema.parse>;

export interface AnswerOptions {
  /** `url` only when asked for: OpenAI's current models always answer base64 (see schemas.ts). */
  responseFormat: 'url' | 'b64_json' | null | undefined;
  /** The files an edit or a variation was made from. */
  inputs?: InputSizes;
  /** What was not done as asked, for the `Warning` header. */
  warnings?: readonly string[];
  signal?: AbortSignal;
}

/** The answer of every /v1/images operation: the images themselves (base64, streamed), or each image's URL. */
export async function imagesAnswer(
  c: Context,
  deps: Pick<Deps, 'blobs' | 'codec' | 'catalog' | 'clock'>,
  images: ImageRecord[],
  options: AnswerOptions,
): Promise<TypedResponse<OpenAiImagesResponse, 200, 'json'>> {
  const first = images[0];
  const model = first === undefined ? undefined : deps.catalog.find(first.model);
  const headers = { ...(first === undefined ? {} : deprecationHeaders(model, deps.clock.now())), ...warningHeaders(options.warnings ?? []) };
  const head = answerHead(Math.floor(deps.clock.now().getTime() / 1000), images, model, options.inputs ?? []);
  if (options.responseFormat === 'url')
    return streamedJson<OpenAiImagesResponse>(c.json({ ...head, data: images.map((image) => ({ url: image.r2_url })) }, 200, headers));
  const stream = await b64Answer(deps, head, images, options.signal);
  return streamedJson<OpenAiImagesResponse>(c.body(stream, 200, { ...headers, 'content-type': 'application/json' }));
}
