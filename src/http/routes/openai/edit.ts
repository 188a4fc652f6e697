import { createRoute } from '@hono/zod-openapi';
import { invalidParameter } from '../../../domain/errors.js';
import { MAX_INPUT_IMAGES, MAX_UPLOAD_BYTES } from '../../../domain/inputs/input-limits.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';
import { resolveModel } from '../../../domain/models/resolve-model.js';
import { checkPrompt } from '../../../domain/prompt.js';
import { requestContext } from '../../app-env.js';
import { multipartBody } from '../../multipart.js';
import { idempotent, requires } from '../../route-table.js';
import { jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { catalogModelId } from './model-names.js';
import { checkB64Pixels } from './b64-answer.js';
import { OpenAiEditFormSchema, type OpenAiEditForm } from './form-schemas.js';
import { generateAll, parseSize, userMetadata, type FieldNames } from './generate-all.js';
import { imagesAnswer } from './images-answer.js';
import { checkSettings, readInputFile, withUploads, type InputFile } from './input-files.js';
import { outputOptions, refuseStreaming } from './openai-options.js';
import { OpenAiImagesResponseSchema, errorContent, openAiErrorResponses } from './schemas.js';

/** The domain's fields as an edit's client sent them. */
const EDIT_FIELDS: FieldNames = { image_ids: 'image', mask_image_id: 'mask' };

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
    const ctx = requestContext(c.var);
    // Everything that can be refused is refused here, before a file is stored or a cost reserved.
    refuseStreaming(form.stream === 'true', form.partial_images);
    const model = resolveModel(deps.catalog, catalogModelId(deps.catalog, form.model, deps.clock.now()) ?? deps.catalog.defaultModelId, { requireAvailable: true, now: deps.clock.now() });
    const prompt = checkPrompt(form.prompt);
    const { images, mask } = await readFiles(form, model);
    const size = parseSize(form.size);
    const options = { ...size, ...outputOptions(form) };
    checkSettings(model, options, EDIT_FIELDS);
    const n = form.n ?? 1;
    if (form.response_format === 'b64_json') checkB64Pixels(n, size.width === undefined ? images[0]?.header ?? {} : size, model);

    const files = mask === undefined ? images : [...images, mask];
    const made = await withUploads(deps, ctx, files, c.req.raw.signal, (ids) => {
      const imageIds = ids.slice(0, images.length);
      const maskId = mask === undefined ? {} : { mask_image_id: ids[images.length] };
      return generateAll(deps, ctx, n, { prompt, model: model.id, image_ids: imageIds, ...maskId, ...options, ...userMetadata(form.user) }, EDIT_FIELDS);
    });
    return imagesAnswer(c, deps, made, form.response_format, ctx.signal);
  });
};

/** The images and the mask, checked against the model and each other from their headers. */
async function readFiles(form: OpenAiEditForm, model: CatalogEntry): Promise<{ images: InputFile[]; mask?: InputFile }> {
  const given = [...(form.image === undefined ? [] : Array.isArray(form.image) ? form.image : [form.image]), ...(form['image[]'] ?? [])];
  if (given.length === 0) throw invalidParameter('image', 'image is required: send the image to edit as the multipart file field image');
  if (given.length > MAX_INPUT_IMAGES) throw invalidParameter('image', `at most ${MAX_INPUT_IMAGES} images per edit (got ${given.length})`);
  const { max_images: most } = model.inputs;
  if (most === 0) throw invalidParameter('image', `model ${model.id} takes no input images (inputs.max_images is 0 in GET /api/models): pick a model that edits`);
  if (given.length > most) throw invalidParameter('image', `model ${model.id} takes at most ${most} image${most === 1 ? '' : 's'} (got ${given.length}): send ${most === 1 ? 'one' : `${most} or fewer`}`);
  if (form.mask !== undefined && !model.inputs.mask) throw invalidParameter('mask', `model ${model.id} does not take a mask (inputs.mask is false in GET /api/models): leave it out`);

  const images: InputFile[] = [];
  for (const [index, file] of given.entries()) images.push(await readInputFile(file, given.length === 1 ? 'image' : `image[${index}]`));
  const first = images[0];
  if (form.mask === undefined || first === undefined) return { images };
  const mask = await readInputFile(form.mask, 'mask');
  const { width, height } = first.header;
  if (mask.header.width !== width || mask.header.height !== height) {
    throw invalidParameter('mask', `the mask is ${mask.header.width}x${mask.header.height} but the image it applies to is ${width}x${height}: send a mask of the same size`);
  }
  if (!mask.header.hasAlpha) throw invalidParameter('mask', 'the mask has no transparency: send a PNG (or WebP) whose fully transparent pixels mark the area to change');
  return { images, mask };
}
