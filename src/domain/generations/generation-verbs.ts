import type { GenerationStatus } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { paginate, type Pagination } from '../pagination.js';
import { CANCELLED_BY_CALLER } from './generation-failure.js';
import { publish, toGenerationRecord, type GenerationRecord } from './generation-record.js';
import { DEFAULT_GENERATION_EVENTS, generationEventDelivery, scheduleGenerationEvent } from '../webhooks/generation-event.js';
import { deliveryRecords } from '../webhooks/delivery-record.js';
import { finishBatch } from '../batches/finish-batch.js';

/** Another user's generation, like one that never existed, is not found. */
export async function getGeneration({ deps, ctx, input }: VerbArgs<{ generationId: string }>): Promise<GenerationRecord> {
  const row = await deps.db.generations.find(ctx.userId, input.generationId);
  if (row === undefined) throw notFound('Generation', 'generation_id', input.generationId);
  const record = await toGenerationRecord(deps, row);
  if (row.webhook_url === null) return record;
  const deliveries = await deliveryRecords(deps, await deps.db.webhookOutbox.generationDeliveries(row.id));
  return { ...record, webhook: { url: row.webhook_url, events: row.webhook_events ?? [...DEFAULT_GENERATION_EVENTS], deliveries } };
}

export interface ListGenerationsInput {
  status?: GenerationStatus;
  limit: number;
  offset: number;
}

/** The caller's generations, newest first. */
export async function listGenerations({
  deps,
  ctx,
  input,
}: VerbArgs<ListGenerationsInput>): Promise<{ generations: GenerationRecord[]; pagination: Pagination }> {
  const page = await deps.db.generations.list(ctx.userId, input.status === undefined ? {} : { status: input.status }, {
    limit: input.limit,
    offset: input.offset,
  });
  const records = await Promise.all(page.items.map((row) => toGenerationRecord(deps, row)));
  const { items, pagination } = paginate({ items: records, total: page.total }, input, (record) => record);
  return { generations: items, pagination };
}

/**
 * A queued generation is cancelled at once and never charged; a running one is stopped by the worker that runs it
 * (the provider call aborted, its charge settled as the provider bills a call cut off there); a finished one is 409.
 */
export async function cancelGeneration({ deps, ctx, input }: VerbArgs<{ generationId: string }>): Promise<GenerationRecord> {
  const at = deps.clock.now().toISOString();
  // The webhook's event is built from the generation as read here; it is stored only if this call cancels it.
  const before = await deps.db.generations.find(ctx.userId, input.generationId);
  if (before === undefined) throw notFound('Generation', 'generation_id', input.generationId);
  const event = generationEventDelivery(deps, before, 'generation.cancelled', { failure: CANCELLED_BY_CALLER });
  const result = await deps.db.generations.requestCancel(ctx.userId, input.generationId, at, CANCELLED_BY_CALLER, event);
  if (result === undefined) throw notFound('Generation', 'generation_id', input.generationId);
  const { outcome, row } = result;
  if (outcome === 'final') {
    throw new ApiError('CONFLICT', 'Generation already finished', {
      generation_id: row.id,
      status: row.status,
      message: `the generation is already ${row.status} and cannot be cancelled`,
    });
  }
  if (outcome === 'cancelled') {
    await publish(deps, 'generation.cancelled', row.id, { error: CANCELLED_BY_CALLER });
    await scheduleGenerationEvent(deps, event);
    // A batch's prompt: its batch may have nothing left to run now.
    if (row.batch_id !== null) await finishBatch(deps, row.batch_id);
  } else await publish(deps, 'generation.cancel_requested', row.id);
  return toGenerationRecord(deps, row);
}
