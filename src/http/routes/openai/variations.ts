import { createRoute } from '@hono/zod-openapi';
import { invalidParameter } from '../../../domain/errors.js';
import { MAX_UPLOAD_BYTES } from '../../../domain/inputs/input-limits.js';
import { resolveModel } from '../../../domain/models/resolve-model.js';
import { requestContext } from '../../app-env.js';
import { multipartBody } from '../../multipart.js';
import { idempotent, requires } from '../../route-table.js';
import { jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { catalogModelId } from './model-names.js';
import { checkB64Pixels } from './b64-answer.js';
import { OpenAiVariationFormSchema } from './form-schemas.js';
import { parseSize, userMetadata, type FieldNames } from './generate-all.js';
import { imagesAnswer } from './images-answer.js';
import { generateFromFiles, readInputFile } from './input-files.js';
import { OpenAiImagesResponseSchema, errorContent, openAiImageErrorResponses } from './schemas.js';

/**
 * OpenAI's variations take no prompt, and every generation here needs one (3 characters or more): a variation is
 * an image-to-image of the given image with this neutral prompt, at the model's default strength.
 */
export const VARIATION_PROMPT = 'a variation of this image';

const VARIATION_FIELDS: FieldNames = { image_ids: 'image', metadata: 'user' };

const route = createRoute({
  operationId: 'openAiCreateImageVariation',
  method: 'post',
  path: '/v1/images/variations',
  ...requires('generate'),
  ...idempotent(),
  tags: ['OpenAI-compatible'],
  summary: "OpenAI's image variation endpoint, for models that do image-to-image with a strength",
  description:
    'A model can make variations when it takes an image with a strength (inputs.strength in GET /api/models); any other model is refused with a 400 naming `model`. ' +
    `A variation is an image-to-image of \`image\` (a PNG, JPEG or WebP up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB, stored as an upload with upload_role \`input\`, once per distinct file) at the model's default strength, ` +
    `with the prompt "${VARIATION_PROMPT}", since OpenAI's variations have no prompt and every generation here needs one; each image is a normal imagegate image ` +
    "with the upload in `source_image_ids`. Without size, it keeps the input's size where the model can make it. A refused request stores nothing.",
  request: multipartBody(OpenAiVariationFormSchema, 'The image and the fields'),
  responses: {
    200: jsonContent(OpenAiImagesResponseSchema, 'The images'),
    ...openAiImageErrorResponses,
    413: errorContent(`File larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (payload_too_large)`),
  },
});

export const registerOpenAiVariation: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const form = c.req.valid('form');
    const ctx = { ...requestContext(c), signal: c.req.raw.signal };
    const model = resolveModel(deps.catalog, catalogModelId(deps.catalog, form.model, deps.clock.now()) ?? deps.catalog.defaultModelId, {
      requireAvailable: true,
      now: deps.clock.now(),
    });
    if (!model.inputs.strength || model.inputs.max_images < 1) {
      throw invalidParameter(
        'model',
        `model ${model.id} cannot make variations: it does not take an image with a strength (inputs.strength in GET /api/models); pick a model that does`,
      );
    }
    const image = await readInputFile(form.image, 'image');
    const size = parseSize(form.size);
    const n = form.n ?? 1;
    if (form.response_format !== 'url') checkB64Pixels(n, size.width === undefined ? image.header : size, model);
    const request = { prompt: VARIATION_PROMPT, model: model.id, ...size, ...userMetadata(form.user) };
    const made = await generateFromFiles(deps, ctx, { model, images: [image], request, n, names: VARIATION_FIELDS });
    return imagesAnswer(c, deps, made, { responseFormat: form.response_format, inputs: [image.header], signal: ctx.signal });
  });
};
