import type { GenerationRow } from '../../ports/database.js';
import type { EnqueueOptions } from '../../ports/job-queue.js';
import { jobId, type JobPayload } from '../jobs.js';

/**
 * The queue job that runs a generation, wherever it is queued from (acceptance, a batch's prompts, the sweeper): its
 * id is fixed by the generation, and its priority is the generation's rank, so the queue serves keys in turn as
 * `queue_position` counts them (see GenerationRepository.insert).
 */
export const generationJob = (
  row: Pick<GenerationRow, 'id' | 'queue_rank'>,
  options: Pick<EnqueueOptions, 'reviveFailed'> = {},
): { payload: JobPayload<'generation'>; options: EnqueueOptions } => ({
  payload: { generationId: row.id },
  options: { id: jobId('generation', row.id), priority: row.queue_rank, ...options },
});
