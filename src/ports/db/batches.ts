import type { GenerationRow, NewGenerationRow } from './generations.js';
import type { Page, PageRequest } from './common.js';
import type { ImageParameters, ImageRow } from './images.js';
import type { WebhookDeliveryRow } from './webhook-outbox.js';

export type BatchStatus = 'queued' | 'processing' | 'completed' | 'cancelled';
export type BatchItemStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface BatchRow {
  id: string;
  user_id: string;
  name: string;
  model: string;
  template_id: string | null;
  parameters: ImageParameters;
  status: BatchStatus;
  total_prompts: number;
  completed_count: number;
  failed_count: number;
  webhook_url: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** The key that created it, whose budgets its items are charged to; absent without a key. */
  key_id?: string | null;
}

export interface BatchItemRow {
  batch_id: string;
  idx: number;
  prompt: string;
  /** Owned from acceptance on, so a retried prompt overwrites its own object instead of adding one. */
  image_id: string;
  status: BatchItemStatus;
  error: string | null;
  updated_at: string;
  /** The generation that runs this prompt (GET /api/generations/{id} follows it); null until it has one. */
  generation_id: string | null;
}

/** Builds the outbox row for a batch that just reached a final state, or none without a webhook. */
export type DeliveryFactory = (batch: BatchRow, items: readonly BatchItemRow[]) => WebhookDeliveryRow | undefined;

export interface BatchRepository {
  /**
   * The batch, its items and the generation of each (batch_id and batch_idx set), in one transaction; the generations
   * ranked in the fair queue as GenerationRepository.insertMany ranks them, and returned so (their jobs' priorities).
   */
  create(batch: BatchRow, items: readonly BatchItemRow[], generations?: readonly NewGenerationRow[]): Promise<GenerationRow[]>;
  find(userId: string, id: string): Promise<BatchRow | undefined>;
  /** Any user's batch, for the worker. */
  findAny(id: string): Promise<BatchRow | undefined>;
  list(userId: string, page: PageRequest): Promise<Page<BatchRow>>;
  items(batchId: string): Promise<BatchItemRow[]>;
  /** One item, for the worker running it (reading all of them per item is quadratic in the batch size). */
  item(batchId: string, idx: number): Promise<BatchItemRow | undefined>;
  /** When no item is pending or running, marks the batch completed and stores its delivery, atomically; returns that delivery. */
  finishIfDone(batchId: string, at: string, delivery: DeliveryFactory): Promise<{ finished: boolean; delivery?: WebhookDeliveryRow }>;
  /**
   * Cancels a queued or processing batch: pending items are dropped and their queued generations cancelled (running
   * ones finish); returns the batch and its delivery.
   */
  cancel(userId: string, batchId: string, at: string, delivery: DeliveryFactory): Promise<{ batch: BatchRow; delivery?: WebhookDeliveryRow } | undefined>;
  /** Batches still queued or processing. */
  openBatchIds(): Promise<string[]>;
  /** Items left pending or running by a stopped process, in batches still open. */
  unfinishedItems(): Promise<BatchItemRow[]>;
}
