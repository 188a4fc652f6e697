import type { BatchItemRow, BatchRow, ImageParameters } from '../../ports/database.js';
import type { BlobStore } from '../../ports/blob-store.js';
import { extensionOf, imageKey } from '../images/image-record.js';

export interface BatchRecord {
  id: string;
  batch_id: string;
  name: string;
  model: string;
  template_id: string | null;
  parameters: ImageParameters;
  status: BatchRow['status'];
  total_prompts: number;
  completed_count: number;
  failed_count: number;
  webhook_url: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface BatchImage {
  id: string;
  prompt: string;
  r2_url: string;
}

export const toBatchRecord = (row: BatchRow): BatchRecord => ({
  id: row.id,
  batch_id: row.id,
  name: row.name,
  model: row.model,
  template_id: row.template_id,
  parameters: row.parameters,
  status: row.status,
  total_prompts: row.total_prompts,
  completed_count: row.completed_count,
  failed_count: row.failed_count,
  webhook_url: row.webhook_url,
  created_at: row.created_at,
  updated_at: row.updated_at,
  finished_at: row.finished_at,
});

/** Where a batch's images are: every item of a batch has the batch's output format. */
const itemUrl = (batch: Pick<BatchRow, 'parameters'>, item: BatchItemRow, blobs: BlobStore): string =>
  blobs.publicUrl(imageKey(item.image_id, extensionOf(batch.parameters.output_format)));

export const batchImages = (batch: Pick<BatchRow, 'parameters'>, items: readonly BatchItemRow[], blobs: BlobStore): BatchImage[] =>
  items.filter((item) => item.status === 'succeeded').map((item) => ({ id: item.image_id, prompt: item.prompt, r2_url: itemUrl(batch, item, blobs) }));

export const toItemRecord = (batch: Pick<BatchRow, 'parameters'>, item: BatchItemRow, blobs: BlobStore) => ({
  index: item.idx,
  prompt: item.prompt,
  status: item.status,
  image_id: item.image_id,
  image: item.status === 'succeeded' ? { id: item.image_id, prompt: item.prompt, r2_url: itemUrl(batch, item, blobs) } : null,
  error: item.error,
  // Followed live at GET /api/generations/{id}/events; absent for a prompt of an older batch that has not run yet.
  ...(item.generation_id === null ? {} : { generation_id: item.generation_id }),
});
