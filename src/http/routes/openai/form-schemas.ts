import { z } from '@hono/zod-openapi';
import { MAX_INPUT_IMAGES } from '../../../domain/inputs/input-limits.js';
import { formFile } from '../../multipart.js';
import { queryInteger } from '../../schemas.js';
import { MAX_IMAGES_PER_REQUEST, openAiFields } from './schemas.js';

/**
 * The multipart forms of `POST /v1/images/edits` and `/variations`, as openai-node sends them: text fields as
 * text (numbers and booleans too), an array of files as repeated `image[]` parts (openai/openai-node
 * src/internal/uploads.ts, addFormValue: `key + '[]'`), a single file as `image`; curl users repeat `image`; form
 * encoders that index arrays (PHP's and Rails' conventions, Python's requests-toolbelt users) send `image[0]`,
 * `image[1]`. Fields OpenAI does not define are ignored, as on /v1/images/generations.
 */
const formNumber = (name: string, min: number, max: number, description: string) =>
  queryInteger(name, min, max).optional().openapi({ type: 'integer', minimum: min, maximum: max, description });

const images = formFile('image')
  .or(z.array(formFile('image')))
  .optional()
  .openapi({
    description: `The image to edit, or several (repeat the field, or send image[]): up to ${MAX_INPUT_IMAGES}, each a PNG, JPEG or WebP; the first is the one edited, up to the model's inputs.max_images`,
  });

const n = formNumber('n', 1, MAX_IMAGES_PER_REQUEST, 'Images to make, 1 to 10 (default 1)');

/** `image[0]` to `image[15]`: named one by one, as a form schema has no pattern for field names. */
const INDEXED: readonly string[] = Array.from({ length: MAX_INPUT_IMAGES }, (_, index) => `image[${index}]`);
const indexedImages: Record<string, z.ZodOptional<ReturnType<typeof formFile>>> = Object.fromEntries(
  INDEXED.map((name, index) => [
    name,
    formFile(name)
      .optional()
      .openapi({ description: index === 0 ? 'The images numbered from 0, as some form encoders send an array; in index order' : 'As image[0]' }),
  ]),
);

export const OpenAiEditFormSchema = z
  .object({
    image: images,
    'image[]': z.array(formFile('image[]')).optional().openapi({ description: 'The same, as openai-node sends an array of images' }),
    ...indexedImages,
    mask: formFile('mask').optional().openapi({
      description: 'A PNG (or WebP) the size of the first image whose fully transparent pixels mark the area to change; for models whose inputs.mask is true',
    }),
    prompt: z.string({ error: 'prompt is required: what to change, 3 to 4,000 characters' }).openapi({ example: 'add a red boat on the water' }),
    model: openAiFields.model.optional(),
    n,
    size: openAiFields.size.optional(),
    quality: openAiFields.quality.optional(),
    background: openAiFields.background.optional(),
    output_format: openAiFields.output_format.optional(),
    output_compression: formNumber('output_compression', 0, 100, 'jpeg and webp quality, 0 to 100; refused with png'),
    input_fidelity: z
      .enum(['low', 'high'], { error: 'input_fidelity must be low or high' })
      .optional()
      .openapi({ description: 'For models that take it (OpenAI gpt-image edits), else refused' }),
    response_format: openAiFields.response_format.optional(),
    moderation: openAiFields.moderation.optional(),
    style: openAiFields.style.optional(),
    stream: z
      .enum(['true', 'false'], { error: 'stream must be true or false' })
      .optional()
      .openapi({ description: "true: the answer is text/event-stream in OpenAI's format, each image an `image_edit.completed` event with `usage`" }),
    partial_images: formNumber('partial_images', 0, 3, "With stream only, 0 to 3: partial images where the model draws them (OpenAI's GPT image models)"),
    user: openAiFields.user.optional(),
  })
  .openapi('OpenAiImageEditForm');

export const OpenAiVariationFormSchema = z
  .object({
    image: formFile('image').openapi({ description: 'The image to vary: a PNG, JPEG or WebP' }),
    model: openAiFields.model.optional(),
    n,
    size: openAiFields.size.optional(),
    response_format: openAiFields.response_format.optional(),
    user: openAiFields.user.optional(),
  })
  .openapi('OpenAiImageVariationForm');

export type OpenAiEditForm = z.output<typeof OpenAiEditFormSchema>;

/** Every image of an edit, in the order sent: `image` (one or repeated), then `image[]`, then `image[0]`, `image[1]`... */
export function formImages(form: OpenAiEditForm): File[] {
  const plain = form.image === undefined ? [] : Array.isArray(form.image) ? form.image : [form.image];
  const fields: Record<string, unknown> = form;
  const indexed = INDEXED.map((name) => fields[name]).filter((file): file is File => file instanceof File);
  return [...plain, ...(form['image[]'] ?? []), ...indexed];
}
export type OpenAiVariationForm = z.output<typeof OpenAiVariationFormSchema>;
