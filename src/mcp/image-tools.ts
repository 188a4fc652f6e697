import { encodeBase64 } from 'hono/utils/encode';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Deps } from '../domain/context.js';
import { acceptGeneration } from '../domain/generations/accept-generation.js';
import { toGenerationRecord } from '../domain/generations/generation-record.js';
import { deleteImage } from '../domain/images/delete-image.js';
import { generateImage } from '../domain/images/generate-image.js';
import { getImage } from '../domain/images/get-image.js';
import { listImages } from '../domain/images/list-images.js';
import { catalogView } from '../domain/models/catalog.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../domain/pagination.js';
import { generateWithProgress } from './generation-progress.js';
import { jsonResult, type DefineTool } from './define-tool.js';

/**
 * The long side of the picture generate_image answers with. The full image goes inline as base64 in the agent's
 * context (3.4 MB for a 2048x2048 PNG); a WebP preview this size is tens of kilobytes and enough to judge the
 * result, and the record's r2_url serves the full file.
 */
const PREVIEW_SIDE = 512;

const imageId = z.string().min(1).max(200).describe('An image id from generate_image or list_images, e.g. img_01jc4x1q7z3m9r4f2k8t6v5w0y');

export function registerImageTools(define: DefineTool, deps: Deps): void {
  define('generate_image', {
    title: 'Generate an image',
    description: `Draws a picture from a text prompt on one of the models (list_models), or edits gallery images (image_ids, mask_image_id; see upload_image), stores it in the gallery and returns its record (id, r2_url: the full-size file, cost in USD, size, seed, source_image_ids) and a preview of the image (WebP, at most ${PREVIEW_SIDE} px a side). Costs money on paid models; local/procedural is free and offline. Send a progress token to get progress notifications (queued, started, the model's progress, completed). With wait: false it answers at once with the generation (id, status, image_id) instead, and the image is made in the background: follow it with get_generation, stop it with cancel_generation.`,
    permissions: ['generate'],
    input: {
      prompt: z.string().describe('What to draw, 3 to 4,000 characters, e.g. "a lighthouse on a cliff at sunset"'),
      model: z.string().optional().describe('A model id from list_models; omit for the service default'),
      width: z
        .number()
        .int()
        .min(1)
        .max(8192)
        .optional()
        .describe("Pixels; each model has its own range (list_models: min_size, max_width); omit for the model's default"),
      height: z
        .number()
        .int()
        .min(1)
        .max(8192)
        .optional()
        .describe("Pixels; each model has its own range (min_size, max_height); omit for the model's default"),
      seed: z
        .number()
        .int()
        .min(0)
        .max(4_294_967_295)
        .optional()
        .describe('The same prompt and seed give the same image on deterministic models; omit for a random one'),
      negative_prompt: z.string().max(2000).optional().describe('What the picture must not show, on models that accept it'),
      image_ids: z
        .array(imageId)
        .max(16)
        .optional()
        .describe(
          'Gallery images to give the model (from upload_image or earlier generations); the first is the one edited. Only for models whose inputs.max_images (list_models) allows',
        ),
      mask_image_id: imageId
        .optional()
        .describe('An uploaded PNG the size of the first image whose fully transparent pixels mark the area to change; for models whose inputs.mask is true'),
      strength: z.number().min(0).max(1).optional().describe('Image-to-image: 0 keeps the input, 1 ignores it; for models whose inputs.strength is true'),
      output_format: z.enum(['png', 'jpeg', 'webp']).optional().describe('The stored file format (default png)'),
      wait: z
        .boolean()
        .optional()
        .describe(
          'false: answer at once with the generation to follow with get_generation, as Prefer: respond-async does on /api/generate (default true: answer with the image)',
        ),
    },
    run: async ({ wait, ...input }, ctx, report) => {
      if (wait === false) return jsonResult(await toGenerationRecord(deps, await acceptGeneration({ deps, ctx, input })));
      const image = report === undefined ? await generateImage({ deps, ctx, input }) : await generateWithProgress(deps, ctx, input, report);
      return jsonResult(image, await preview(deps, image.r2_key));
    },
  });

  define('list_images', {
    title: 'List images',
    description:
      'Your images, newest first, with their prompts, models, costs and public URLs. Search prompts with query; page with the cursor of the previous answer.',
    permissions: ['read'],
    readOnly: true,
    input: {
      limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`How many, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
      cursor: z.string().max(512).optional().describe('pagination.next_cursor from the previous answer, to get the next page'),
      query: z.string().max(200).optional().describe('Only images whose prompt contains this text (any case)'),
      model: z.string().max(200).optional().describe('Only images made by this model id'),
    },
    run: async (args, ctx) =>
      jsonResult(
        await listImages({ deps, ctx, input: { limit: args.limit ?? DEFAULT_LIMIT, offset: 0, cursor: args.cursor, q: args.query, model: args.model } }),
      ),
  });

  define('get_image', {
    title: 'Get an image',
    description: "One image's record: prompt, model, size, seed and other parameters, cost, public URL.",
    permissions: ['read'],
    readOnly: true,
    input: { id: imageId },
    run: async (args, ctx) => jsonResult(await getImage({ deps, ctx, input: { imageId: args.id } })),
  });

  define('delete_image', {
    title: 'Delete an image',
    description:
      'Removes an image from the gallery and its file and thumbnails from storage (the record is kept, so its cost still counts in get_costs). Needs a key with the manage permission.',
    permissions: ['manage'],
    input: { id: imageId },
    run: async (args, ctx) => jsonResult(await deleteImage({ deps, ctx, input: { imageId: args.id } })),
  });

  define('list_models', {
    title: 'List models',
    description:
      'The model catalogue: id (pass it as model), cost per image in USD, speed, size limits, which parameters each takes, and whether it can run here now (available).',
    permissions: ['read'],
    readOnly: true,
    input: { available_only: z.boolean().optional().describe('Only the models that can generate on this server now (default true)') },
    run: async (args) => {
      const now = deps.clock.now();
      const models = deps.catalog
        .list()
        .map((entry) => catalogView(entry, now))
        .filter((model) => args.available_only === false || model.available)
        .map((m) => ({
          id: m.id,
          name: m.name,
          provider: m.provider,
          cost_per_image: m.cost_per_image,
          available: m.available,
          speed: m.speed,
          quality: m.quality,
          default_width: m.default_width,
          default_height: m.default_height,
          min_size: m.min_size,
          max_width: m.max_width,
          max_height: m.max_height,
          sizes: m.sizes,
          parameters: m.parameters,
          inputs: m.inputs,
          lifecycle: m.lifecycle,
          description: m.description,
        }));
      return jsonResult({ default_model: deps.catalog.defaultModelId, models });
    },
  });
}

/** The stored image as a small WebP image block, or none when the object is gone (deleted meanwhile). */
async function preview(deps: Deps, key: string): Promise<CallToolResult['content']> {
  const blob = await deps.blobs.get(key);
  if (blob === undefined) return [];
  const small = await deps.codec.encode(blob.bytes, { format: 'webp', maxSide: PREVIEW_SIDE });
  return [{ type: 'image', data: encodeBase64(small.bytes.slice().buffer), mimeType: small.contentType }];
}
