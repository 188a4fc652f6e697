import type { PageRequest } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { notFound } from '../errors.js';
import { paginate, type Pagination } from '../pagination.js';
import { batchImages, toBatchRecord, toItemRecord, type BatchRecord } from './batch-record.js';
import { toDeliveryRecord } from '../webhooks/delivery-record.js';

export async function getBatch({ deps, ctx, input }: VerbArgs<{ batchId: string }>) {
  const batch = await deps.db.batches.find(ctx.userId, input.batchId);
  if (batch === undefined) throw notFound('Batch', 'batch_id', input.batchId);
  const items = await deps.db.batches.items(batch.id);
  const deliveries = await deps.db.webhookOutbox.deliveries(batch.id);
  const webhooks = await Promise.all(deliveries.map(async (d) => toDeliveryRecord(d, await deps.db.webhookOutbox.attempts(d.id))));
  return {
    ...toBatchRecord(batch),
    images: batchImages(batch, items, deps.blobs),
    items: items.map((item) => toItemRecord(batch, item, deps.blobs)),
    errors: items.filter((item) => item.status === 'failed').map((item) => ({ index: item.idx, prompt: item.prompt, error: item.error ?? 'failed' })),
    webhook: { deliveries: webhooks },
  };
}

export async function listBatches({ deps, ctx, input }: VerbArgs<PageRequest>): Promise<{ batches: BatchRecord[]; pagination: Pagination }> {
  const { items, pagination } = paginate(await deps.db.batches.list(ctx.userId, input), input, toBatchRecord);
  return { batches: items, pagination };
}
