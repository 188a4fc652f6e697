import type { BatchItemRef, BatchItemRow, BatchRow, GenerationRow, NewGenerationRow } from '../../ports/database.js';

/**
 * The generation that runs a batch's prompt: the batch's parameters with the prompt's text, the image id the prompt
 * owns, charged to the key that created the batch. Its seed is drawn when it runs, as every prompt's always was.
 * Without a webhook of its own: the batch's webhook reports the batch.
 */
export function batchGeneration(batch: BatchRow, item: BatchItemRow, id = item.generation_id): NewGenerationRow {
  if (id === null) throw new Error(`prompt ${item.idx} of batch ${batch.id} has no generation id`);
  return {
    id,
    user_id: batch.user_id,
    key_id: batch.key_id ?? null,
    status: 'queued',
    model: batch.model,
    prompt: item.prompt,
    request: { ...batch.parameters, prompt: item.prompt, model: batch.model, ...(batch.template_id === null ? {} : { template_id: batch.template_id }) },
    image_id: item.image_id,
    error: null,
    progress: null,
    created_at: batch.created_at,
    started_at: null,
    finished_at: null,
    cancel_requested_at: null,
    webhook_url: null,
    webhook_events: null,
    deadline_at: null,
    batch_id: batch.id,
    batch_idx: item.idx,
  };
}

/** The batch prompt a generation runs, for the writes that start and end it; undefined for a single generation. */
export const batchItemOf = (row: Pick<GenerationRow, 'batch_id' | 'batch_idx'>, error?: string): BatchItemRef | undefined =>
  row.batch_id === null || row.batch_idx === null ? undefined : { batchId: row.batch_id, idx: row.batch_idx, ...(error === undefined ? {} : { error }) };
