import { createRoute, z } from '@hono/zod-openapi';
import { MAX_UPLOAD_BYTES } from '../../../domain/inputs/input-limits.js';
import { uploadImage } from '../../../domain/inputs/upload-image.js';
import { requestContext } from '../../app-env.js';
import { formFile, multipartBody, stagedFile } from '../../multipart.js';
import { idempotent, requires } from '../../route-table.js';
import { ErrorSchema, ImageSchema, errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';

const ROLE_RULE = 'role must be file, input or mask';

const UploadFormSchema = z
  .object({
    file: formFile('file'),
    role: z.enum(['file', 'input', 'mask'], { error: ROLE_RULE }).optional().openapi({
      description:
        "What the file is for, kept as the record's upload_role: file (the default) is listed in the gallery; input (an image to edit) and mask are listed only with GET /api/images?kind=upload, as the inputs and masks of /v1/images/edits are",
      example: 'mask',
    }),
  })
  .openapi('UploadForm');

const route = createRoute({
  operationId: 'uploadImage',
  method: 'post',
  path: '/api/uploads',
  ...requires('generate'),
  ...idempotent(),
  tags: ['Images'],
  summary: 'Upload an image into the gallery (PNG, JPEG or WebP), to edit or use as a reference',
  description: `Multipart field \`file\`, up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB and 8192 x 8192 pixels. The answer is an image record with \`kind: "upload"\`, cost 0, model \`upload\` and the file's name as its prompt (a file sent without a name, or as \`blob\`, is named by its role, type and time, e.g. \`upload-2026-11-27T09-00-00.png\`); pass its id in \`image_ids\` or \`mask_image_id\` of POST /api/generate. The file is stored byte for byte. The same bytes uploaded again by the same user answer the image already stored (same id), made a listed \`file\` if it was an input or mask and \`role\` is \`file\`.`,
  request: multipartBody(UploadFormSchema, 'The image file'),
  responses: {
    201: jsonContent(ImageSchema, 'The uploaded image'),
    ...errorResponses,
    413: jsonContent(ErrorSchema, `File larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`),
  },
});

export const registerUploadImage: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const { file, role } = c.req.valid('form');
    const image = await uploadImage({
      deps,
      ctx: { ...requestContext(c), signal: c.req.raw.signal },
      input: { file: await stagedFile(file), filename: file.name, ...(role === undefined ? {} : { role }) },
    });
    return c.json(image, 201);
  });
};
