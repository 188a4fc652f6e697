import { z } from '@hono/zod-openapi';
import { GenerationOptionsSchema, PaginationSchema, ParametersSchema } from '../../schemas.js';

export const TemplateSchema = z
  .object({
    id: z.string().openapi({ example: 'tmpl_01jc4x1q7z3m9r4f2k8t6v5w0y' }),
    name: z.string(),
    model: z.string(),
    default_prompt: z.string(),
    parameters: ParametersSchema,
    user_id: z.string().openapi({ description: '`system` for the read-only samples' }),
    is_sample: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Template');

const fields = {
  name: z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters').openapi({ example: 'Product shot' }),
  model: z.string().openapi({ example: 'local/procedural' }),
  default_prompt: z.string().openapi({ example: 'studio photo of a ceramic mug' }),
  parameters: GenerationOptionsSchema.strict()
    .optional()
    .openapi({ description: 'Saved generation settings (width, height, seed, negative_prompt, steps, guidance)' }),
};

export const CreateTemplateSchema = z.strictObject(fields).openapi('CreateTemplate');
export const UpdateTemplateSchema = z
  .strictObject(fields)
  .partial()
  .openapi('UpdateTemplate', { description: 'Any subset of the fields; the others keep their values' });

export const TemplateIdParamSchema = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'tmpl_sample_sunset_coast' }),
});

export const TemplateListSchema = z.object({ templates: z.array(TemplateSchema), pagination: PaginationSchema }).openapi('TemplateList');
export const DeletedTemplateSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedTemplate');
