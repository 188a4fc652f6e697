import type { BatchItemRow, BatchRow } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { ApiError, invalidParameter } from '../errors.js';
import type { GenerationOptions } from '../images/generation-settings.js';
import { planGeneration } from '../images/plan-generation.js';
import { checkPrompt } from '../prompt.js';
import { toBatchRecord, type BatchRecord } from './batch-record.js';
import { enqueueJobs, jobId } from '../jobs.js';
import { inSpan } from '../../ports/tracer.js';
import { checkWebhookUrl } from '../webhooks/webhook-url.js';
import { batchGeneration } from './batch-generation.js';

export interface CreateBatchInput extends GenerationOptions {
  name?: string;
  prompts: string[];
  model?: string;
  template_id?: string;
  webhook_url?: string;
}

/** Everything is checked before anything is queued: one bad prompt refuses the whole batch. */
export function createBatch(args: VerbArgs<CreateBatchInput>): Promise<BatchRecord> {
  return inSpan('batch.create', { attributes: { 'imagegate.batch.prompts': args.input.prompts.length } }, () => create(args));
}

async function create({ deps, ctx, input }: VerbArgs<CreateBatchInput>): Promise<BatchRecord> {
  const { prompts, name, webhook_url: webhookUrl, ...shared } = input;
  if (prompts.length === 0) throw invalidParameter('prompts', 'prompts must hold at least one prompt');
  const max = deps.batchSettings.maxPrompts;
  if (prompts.length > max) throw invalidParameter('prompts', `a batch holds at most ${max} prompts (got ${prompts.length})`);

  const checked = prompts.map((prompt, index) => {
    try {
      return checkPrompt(prompt);
    } catch (error) {
      if (!(error instanceof ApiError) || typeof error.details !== 'object') throw error;
      throw new ApiError('INVALID_PARAMETER', 'Invalid prompt', { field: 'prompts', index, message: `prompts[${index}]: ${String(error.details.message)}` });
    }
  });
  const plan = await planGeneration(deps, ctx.userId, { ...shared, prompt: checked[0] });

  if (webhookUrl !== undefined) await checkWebhookUrl(deps, webhookUrl);

  const now = deps.clock.now().toISOString();
  const { model: _model, template_id: _template, ...parameters } = shared;
  const batch: BatchRow = {
    id: deps.ids.newId('batch'),
    user_id: ctx.userId,
    name: name ?? `Batch of ${prompts.length} prompt${prompts.length === 1 ? '' : 's'}`,
    model: plan.model.id,
    template_id: plan.template?.id ?? null,
    parameters,
    status: 'queued',
    total_prompts: prompts.length,
    completed_count: 0,
    failed_count: 0,
    webhook_url: webhookUrl ?? null,
    created_at: now,
    updated_at: now,
    finished_at: null,
    ...(ctx.key === undefined ? {} : { key_id: ctx.key.id }),
  };
  const items: BatchItemRow[] = checked.map((prompt, idx) => ({
    batch_id: batch.id,
    idx,
    prompt,
    image_id: deps.ids.newId('img'),
    status: 'pending',
    error: null,
    updated_at: now,
    generation_id: deps.ids.newId('gen'),
  }));
  // Each prompt is a generation (GET /api/generations/{id} follows it), run by the same code as a single one.
  const generations = items.map((item) => batchGeneration(batch, item));
  const ranked = await deps.db.batches.create(batch, items, generations);
  // Each prompt's job takes its generation's rank: batches of different keys take turns in the batch queue.
  const rankOf = new Map(ranked.map((row) => [row.batch_idx, row.queue_rank]));
  await enqueueJobs(
    deps.queue,
    'batch-item',
    items.map((item) => ({
      payload: { batchId: batch.id, idx: item.idx },
      options: { id: jobId('batch-item', batch.id, item.idx), priority: rankOf.get(item.idx) },
    })),
  );
  deps.logger.info({ requestId: ctx.requestId, batchId: batch.id, prompts: prompts.length, model: batch.model }, 'batch accepted');
  return toBatchRecord(batch);
}
