import { z } from 'zod';
import type { Deps } from '../domain/context.js';
import { cancelGeneration, getGeneration } from '../domain/generations/generation-verbs.js';
import { jsonResult, type DefineTool } from './define-tool.js';

const generationId = z.string().min(1).max(200).describe('The id of a generate_image call made with wait: false, e.g. gen_01jd5x4yq8r2b9c3d4e5f6g7h8');

/** Generations: following and stopping the work generate_image started with wait: false, as /api/generations does. */
export function registerGenerationTools(define: DefineTool, deps: Deps): void {
  define('get_generation', {
    title: 'Get a generation',
    description:
      "A generation's status (queued, running, succeeded, failed, cancelled), its queue position while queued, its progress (0 to 1) where the model reports it, its image once succeeded (id, r2_url) and its error once failed or cancelled. Poll it after generate_image with wait: false.",
    permissions: ['read'],
    readOnly: true,
    input: { generation_id: generationId },
    run: async (args, ctx) => jsonResult(await getGeneration({ deps, ctx, input: { generationId: args.generation_id } })),
  });

  define('cancel_generation', {
    title: 'Cancel a generation',
    description:
      'Stops a generation: a queued one is cancelled at once and never charged; a running one answers running and is stopped at its provider within moments (its charge settles as the provider bills a call cut off there); a finished one cannot be cancelled (a CONFLICT error).',
    permissions: ['generate'],
    input: { generation_id: generationId },
    run: async (args, ctx) => jsonResult(await cancelGeneration({ deps, ctx, input: { generationId: args.generation_id } })),
  });
}
