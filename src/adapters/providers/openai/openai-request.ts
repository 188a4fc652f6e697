import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';

/*
 * What the adapter sends, shaped as openai-node shapes it (openai/openai-node src/resources/images.ts at 7b7d6ca,
 * 2026-08-21): `images.generate` posts ImageGenerateParams as JSON to /images/generations; `images.edit` posts
 * ImageEditParams to /images/edits through `multipartFormRequestOptions`, whose `createForm`
 * (src/internal/uploads.ts) appends each scalar as a text field, each File as a file field under its own name and
 * type, and each element of an array under `<key>[]`: one image is sent as `image`, several as repeated `image[]`.
 */

/**
 * The quality a model is called at when the caller names none. Prices depend on it: the catalogue's pricing rules
 * estimate at these qualities (tokens at `medium` for gpt-image-2), so changing one means changing the other.
 */
const defaultQuality = (model: string): string => (model.startsWith('dall-e') ? 'standard' : 'medium');

/** Fields both endpoints take, in ImageGenerateParams / ImageEditParams spelling; unset options are left out. */
function commonParams(request: ProviderRequest): Record<string, string | number> {
  const params: Record<string, string | number> = {
    model: request.providerModel,
    prompt: request.prompt,
    n: 1,
    size: `${request.width}x${request.height}`,
    quality: request.quality ?? defaultQuality(request.providerModel),
  };
  if (request.background !== undefined) params.background = request.background;
  return params;
}

/**
 * Partial images are streamed by the GPT image models only (ImageGenerateParams.partial_images and .stream, the
 * same on ImageEditParams); DALL-E answers one image, so it is never asked to stream.
 */
export const streamsPartials = (request: ProviderRequest, partialImages: number | undefined): partialImages is number =>
  partialImages !== undefined && partialImages > 0 && !request.providerModel.startsWith('dall-e');

/** The JSON body of `images.generate`; with `partialImages` (see streamsPartials), a streamed one. */
export function generationBody(request: ProviderRequest, partialImages?: number): Record<string, unknown> {
  const body: Record<string, unknown> = commonParams(request);
  // GPT image models always answer base64 and reject response_format; DALL-E answers a URL unless asked.
  if (request.providerModel.startsWith('dall-e')) body.response_format = 'b64_json';
  else body.output_format = 'png';
  // ImageGenerateParams.moderation, `low` or `auto`, GPT image models only. ImageEditParams has no such field (the
  // same file), so an edit's moderation stays here: OpenAI moderates edits at its standard level.
  if (request.moderation !== undefined && !request.providerModel.startsWith('dall-e')) body.moderation = request.moderation;
  if (streamsPartials(request, partialImages)) Object.assign(body, { stream: true, partial_images: partialImages });
  return body;
}

/** An upload as openai-node's `toFile(bytes, name, { type })` makes it: a File with the image's own name and type. */
const fileOf = (image: InputImage): File => new File([new Uint8Array(image.bytes)], image.filename, { type: image.contentType });

/**
 * The multipart body of `images.edit({ image, mask, prompt, model, n, size, quality, background, input_fidelity,
 * output_format })`. The mask goes as it came: imagegate's masks already follow OpenAI's semantics (a fully
 * transparent pixel marks the area to edit), and OpenAI applies it to the first image.
 */
export function editForm(request: ProviderRequest, images: readonly InputImage[], partialImages?: number): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(commonParams(request))) form.append(name, String(value));
  if (request.inputFidelity !== undefined) form.append('input_fidelity', request.inputFidelity);
  form.append('output_format', 'png');
  // createForm sends booleans and numbers as their text, as it does every scalar.
  if (streamsPartials(request, partialImages)) {
    form.append('stream', 'true');
    form.append('partial_images', String(partialImages));
  }
  if (request.mask !== undefined) form.append('mask', fileOf(request.mask));
  // createForm's array branch: every element under `image[]`, in order; a single upload keeps the plain name.
  const [only] = images;
  if (images.length === 1 && only !== undefined) form.append('image', fileOf(only));
  else for (const image of images) form.append('image[]', fileOf(image));
  return form;
}
