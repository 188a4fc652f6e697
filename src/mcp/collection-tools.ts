import { z } from 'zod';
import { getCosts } from '../domain/analytics/analytics-verbs.js';
import { createBatch } from '../domain/batches/create-batch.js';
import { getBatch } from '../domain/batches/read-batches.js';
import { addImageToCollection } from '../domain/collections/change-collections.js';
import { createCollection } from '../domain/collections/create-collection.js';
import type { Deps } from '../domain/context.js';
import { jsonResult, type DefineTool } from './define-tool.js';

const day = z.string().max(40).describe('A date (2026-11-01) or a UTC timestamp (2026-11-01T12:00:00Z)');

/** Collections, batches and costs: the rest of the gallery an agent works with. */
export function registerCollectionTools(define: DefineTool, deps: Deps): void {
  define('create_collection', {
    title: 'Create a collection',
    description: 'A named set of images (a moodboard, a campaign); add images with add_to_collection. Needs the manage permission.',
    permissions: ['manage'],
    input: {
      name: z.string().min(1).max(100).describe('The name people see, e.g. "Spring campaign"'),
      description: z.string().max(1000).optional().describe('What the collection is for'),
    },
    run: async (args, ctx) => jsonResult(await createCollection({ deps, ctx, input: args })),
  });

  define('add_to_collection', {
    title: 'Add an image to a collection',
    description: 'Puts one of your images in one of your collections; adding it twice changes nothing. Needs the manage permission.',
    permissions: ['manage'],
    input: {
      collection_id: z.string().min(1).max(200).describe('The id from create_collection, e.g. coll_01jc...'),
      image_id: z.string().min(1).max(200).describe('The id from generate_image or list_images, e.g. img_01jc...'),
    },
    run: async (args, ctx) => jsonResult(await addImageToCollection({ deps, ctx, input: { collectionId: args.collection_id, imageId: args.image_id } })),
  });

  define('create_batch', {
    title: 'Create a batch',
    description:
      'Queues several prompts on one model and returns at once with the batch id; the images are made in the background. Poll get_batch until status is completed. Each image costs as with generate_image.',
    permissions: ['generate'],
    input: {
      prompts: z
        .array(z.string())
        .min(1)
        .max(deps.batchSettings.maxPrompts)
        .describe(`The prompts, 1 to ${deps.batchSettings.maxPrompts}, each 3 to 4,000 characters`),
      name: z.string().min(1).max(100).optional().describe('A name to recognise the batch by'),
      model: z.string().optional().describe('A model id from list_models; omit for the service default'),
      width: z.number().int().min(1).max(8192).optional().describe("Pixels for every image; omit for the model's default"),
      height: z.number().int().min(1).max(8192).optional().describe("Pixels for every image; omit for the model's default"),
    },
    run: async (args, ctx) => jsonResult(await createBatch({ deps, ctx, input: args })),
  });

  define('get_batch', {
    title: 'Get a batch',
    description:
      "A batch's status (queued, processing, completed, cancelled), counts, the images made so far with their URLs, and each failed prompt's reason.",
    permissions: ['read', 'generate'],
    readOnly: true,
    input: { id: z.string().min(1).max(200).describe('The id from create_batch, e.g. batch_01jc...') },
    run: async (args, ctx) => {
      const { webhook: _webhook, ...batch } = await getBatch({ deps, ctx, input: { batchId: args.id } });
      return jsonResult(batch);
    },
  });

  define('get_costs', {
    title: 'Get costs',
    description: 'What your images cost in USD, in total, per model and per UTC day, for an optional date range (deleted images included: they were paid for).',
    permissions: ['read'],
    readOnly: true,
    input: {
      from: day.optional().describe('Start, inclusive: a date or UTC timestamp'),
      to: day.optional().describe('End: a date includes that whole day; a timestamp is exclusive'),
    },
    run: async (args, ctx) => jsonResult(await getCosts({ deps, ctx, input: args })),
  });
}
