import { createRoute, z } from '@hono/zod-openapi';
import { invalidParameter } from '../../../domain/errors.js';
import { MAX_INPUT_IMAGES, MAX_UPLOAD_BYTES } from '../../../domain/inputs/input-limits.js';
import { resolveModel } from '../../../domain/models/resolve-model.js';
import { requestContext } from '../../app-env.js';
import { multipartBody } from '../../multipart.js';
import { idempotent, requires } from '../../route-table.js';
import { jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { catalogModelId } from './model-names.js';
import { checkB64Pixels } from './b64-answer.js';
import { OpenAiEditFormSchema, formImages } from './form-schemas.js';
import { parseSize, userMetadata, type FieldNames } from './generate-all.js';
import { imagesAnswer } from './images-answer.js';
import { generateFromFiles, readInputFile, stageFiles } from './input-files.js';
import { imagesEventStream } from './images-event-stream.js';
import { checkPartialImages, openAiOptions } from './openai-options.js';
import { OpenAiImagesResponseSchema, errorContent, openAiImageErrorResponses } from './schemas.js';

/** The domain's fields as an edit's client sent them. */
const EDIT_FIELDS: FieldNames = { image_ids: 'image', mask_image_id: 'mask', metadata: 'user' };

const route = createRoute({
  operationId: 'openAiEditImage',
  method: 'post',
  path: '/v1/images/edits',
  ...requires('generate'),
  ...idempotent(),
  tags: ['OpenAI-compatible'],
  summary: "OpenAI's image edit endpoint: the files become uploads in the gallery, each image made from them a normal imagegate image",
  description:
    `Multipart, as OpenAI's SDKs send \`images.edit()\`: \`image\` (one file, repeated, \`image[]\` or \`image[0]\`, \`image[1]\`...; up to ${MAX_INPUT_IMAGES}, as the model takes: ` +
    `inputs.max_images in GET /api/models), \`mask\` (transparent = change, the first image's size), \`prompt\` and OpenAI's other fields; files up to ` +
    `${MAX_UPLOAD_BYTES / 1024 / 1024} MB in all. Each file is stored as an upload (kind \`upload\`, upload_role \`input\` or \`mask\`: listed with GET /api/images?kind=upload, not in the default list; the same bytes sent again are the upload already stored), and each image made has them in \`source_image_ids\`. ` +
    "Without size, an image keeps the input's size where the model can make it. The images come as `b64_json` unless `response_format: url` asks for each `r2_url`. " +
    "`stream: true` answers text/event-stream in OpenAI's format: `image_edit.partial_image` events as OpenAI's GPT image models draw them (with `partial_images`), then an `image_edit.completed` event per image, with `usage`. A refused request stores nothing.",
  request: multipartBody(OpenAiEditFormSchema, 'The images, the mask and the fields'),
  responses: {
    200: {
      content: { ...jsonContent(OpenAiImagesResponseSchema, 'The images').content, 'text/event-stream': { schema: z.string() } },
      description: 'The images (or, with stream: true, their events)',
    },
    ...openAiImageErrorResponses,
    413: errorContent(`Files larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (payload_too_large)`),
  },
});

export const registerOpenAiEdit: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const form = c.req.valid('form');
    const ctx = { ...requestContext(c), signal: c.req.raw.signal };
    // Everything that can be refused is refused before a file is stored or a cost reserved (stageInputFiles).
    const stream = form.stream === 'true';
    checkPartialImages(stream, form.partial_images);
    const model = resolveModel(deps.catalog, catalogModelId(deps.catalog, form.model, deps.clock.now()) ?? deps.catalog.defaultModelId, {
      requireAvailable: true,
      now: deps.clock.now(),
    });
    const given = formImages(form);
    if (given.length === 0) throw invalidParameter('image', 'image is required: send the image to edit as the multipart file field image');
    const images = await Promise.all(given.map((file, index) => readInputFile(file, given.length === 1 ? 'image' : `image[${index}]`)));
    const mask = form.mask === undefined ? undefined : await readInputFile(form.mask, 'mask');
    const size = parseSize(form.size);
    const n = form.n ?? 1;
    if (form.response_format !== 'url' || stream) checkB64Pixels(n, size.width === undefined ? (images[0]?.header ?? {}) : size, model);
    const { options, warnings } = openAiOptions(form, model);
    const request = { prompt: form.prompt, model: model.id, ...size, ...options, ...userMetadata(form.user) };
    const inputs = images.map((image) => image.header);
    if (stream) {
      const staged = await stageFiles(deps, ctx, { model, images, ...(mask === undefined ? {} : { mask }), request, names: EDIT_FIELDS });
      const first = images[0]?.header;
      const streamSize = `${size.width ?? first?.width ?? model.default_width}x${size.height ?? first?.height ?? model.default_height}`;
      return imagesEventStream(c, deps, ctx, {
        kind: 'image_edit',
        n,
        input: staged.request,
        model,
        size: streamSize,
        names: EDIT_FIELDS,
        inputs,
        warnings,
        discard: staged.discard,
      });
    }
    const made = await generateFromFiles(deps, ctx, { model, images, ...(mask === undefined ? {} : { mask }), request, n, names: EDIT_FIELDS });
    return imagesAnswer(c, deps, made, { responseFormat: form.response_format, inputs, warnings, signal: ctx.signal });
  });
};
