import { z } from '@hono/zod-openapi';
import { GenerationOptionsSchema, ImageSchema, PaginationSchema } from '../../schemas.js';

export const GenerateBodySchema = z
  .strictObject({
    prompt: z.string().optional().openapi({ description: 'At least 3 and at most 4,000 characters after trimming; optional with template_id', example: 'a lighthouse on a cliff at sunset' }),
    model: z.string().optional().openapi({ description: 'Model id from GET /api/models; optional with template_id', example: 'local/procedural' }),
    template_id: z.string().optional().openapi({ description: "Use a template's model, prompt and parameters; fields in the request win" }),
    metadata: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Custom data attached to the image' }),
    ...GenerationOptionsSchema.shape,
  })
  .openapi('GenerateRequest');

export const ImageIdParamSchema = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'img_01jc4x1q7z3m9r4f2k8t6v5w0y' }),
});

export const ImageListSchema = z.object({ images: z.array(ImageSchema), pagination: PaginationSchema }).openapi('ImageList');

export const DeletedImageSchema = z
  .object({ id: z.string(), deleted: z.literal(true), deleted_at: z.string() })
  .openapi('DeletedImage');
