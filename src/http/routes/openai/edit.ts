import { createRoute } from '@hono/zod-openapi';
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
import { OpenAiEditFormSchema } from './form-schemas.js';
import { parseSize, userMetadata, type FieldNames } from './generate-all.js';
import { imagesAnswer } from './images-answer.js';
import { generateFromFiles, readInputFile } from './input-files.js';
import { outputOptions, refuseStreaming } from './openai-options.js';
import { OpenAiImagesResponseSchema, errorContent, openAiErrorResponses } from './schemas.js';

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
    `Multipart, as OpenAI's SDKs send \`images.edit()\`: \`image\` (one file, repeated, or \`image[]\`; up to ${MAX_INPUT_IMAGES}, as the model takes: ` +
    `inputs.max_images in GET /api/models), \`mask\` (transparent = change, the first image's size), \`prompt\` and OpenAI's other fields; files up to ` +
    `${MAX_UPLOAD_BYTES / 1024 / 1024} MB in all. Each file is stored as an upload (kind \`upload\`), and each image made has them in \`source_image_ids\`. ` +
    "Without size, an image keeps the input's size where the model can make it. `url` (the default) is the image's `r2_url`. " +
    '`stream: true` and `partial_images` are refused. A refused request stores nothing.',
  request: multipartBody(OpenAiEditFormSchema, 'The images, the mask and the fields'),
  responses: { 200: jsonContent(OpenAiImagesResponseSchema, 'The images'), ...openAiErrorResponses, 413: errorContent(`Files larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (payload_too_large)`) },
});

export const registerOpenAiEdit: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const form = c.req.valid('form');
    const ctx = { ...requestContext(c), signal: c.req.raw.signal };
    // Everything that can be refused is refused before a file is stored or a cost reserved (stageInputFiles).
    refuseStreaming(form.stream === 'true', form.partial_images);
    const model = resolveModel(deps.catalog, catalogModelId(deps.catalog, form.model, deps.clock.now()) ?? deps.catalog.defaultModelId, { requireAvailable: true, now: deps.clock.now() });
    const given = [...(form.image === undefined ? [] : Array.isArray(form.image) ? form.image : [form.image]), ...(form['image[]'] ?? [])];
    if (given.length === 0) throw invalidParameter('image', 'image is required: send the image to edit as the multipart file field image');
    const images = await Promise.all(given.map((file, index) => readInputFile(file, given.length === 1 ? 'image' : `image[${index}]`)));
    const mask = form.mask === undefined ? undefined : await readInputFile(form.mask, 'mask');
    const size = parseSize(form.size);
    const n = form.n ?? 1;
    if (form.response_format === 'b64_json') checkB64Pixels(n, size.width === undefined ? images[0]?.header ?? {} : size, model);
    const request = { prompt: form.prompt, model: model.id, ...size, ...outputOptions(form), ...userMetadata(form.user) };
    const made = await generateFromFiles(deps, ctx, { model, images, ...(mask === undefined ? {} : { mask }), request, n, names: EDIT_FIELDS });
    return imagesAnswer(c, deps, made, form.response_format, ctx.signal);
  });
};
