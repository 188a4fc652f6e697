import type { GenerationRow, GenerationStatus, GenerationWebhookEvent } from '../../ports/database.js';
import type { DeliveryRecord } from '../webhooks/delivery-record.js';
import type { GenerationEvent, GenerationEventType } from '../../ports/generation-events.js';
import type { Deps } from '../context.js';
import { toImageRecord, type ImageRecord } from '../images/image-record.js';

/** A generation as the API answers it (GET /api/generations/{id}, a 202, the events' first message). */
export interface GenerationRecord {
  id: string;
  status: GenerationStatus;
  model: string;
  prompt: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** While queued: how many generations will start before this one. */
  queue_position?: number;
  /** 0..1, where the provider reports progress. */
  progress?: number;
  image_id: string;
  /** The image, once succeeded (absent if it was deleted since). */
  image?: ImageRecord;
  /** Once failed or cancelled: the error a waiting caller got. */
  error?: { error: string; code: string; details?: unknown };
  /** When deadline_seconds was given: still queued then, it is cancelled. */
  deadline_at?: string;
  /** When it runs a batch's prompt: that batch (GET /api/batch/{id}) and the prompt's index in it. */
  batch_id?: string;
  batch_index?: number;
  /** In GET /api/generations/{id}, when it has a webhook: where its events go, and each delivery's log. */
  webhook?: { url: string; events: GenerationWebhookEvent[]; deliveries: DeliveryRecord[] };
}

export async function toGenerationRecord(deps: Pick<Deps, 'db' | 'blobs'>, row: GenerationRow): Promise<GenerationRecord> {
  const record: GenerationRecord = {
    id: row.id,
    status: row.status,
    model: row.model,
    prompt: row.prompt,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    image_id: row.image_id,
  };
  if (row.status === 'queued') record.queue_position = await deps.db.generations.queuedBefore(row);
  if (row.progress !== null) record.progress = row.progress;
  if (row.deadline_at !== null) record.deadline_at = row.deadline_at;
  if (row.batch_id !== null && row.batch_idx !== null) {
    record.batch_id = row.batch_id;
    record.batch_index = row.batch_idx;
  }
  if (row.status === 'succeeded') {
    const image = await deps.db.images.findLive(row.user_id, row.image_id);
    if (image !== undefined) record.image = toImageRecord(image, deps.blobs);
  }
  if (row.error !== null) {
    const { error, code, details } = row.error;
    record.error = details === undefined ? { error, code } : { error, code, details };
  }
  return record;
}

/** The event a generation's current state is, for a watcher that connects late. */
export const EVENT_OF_STATUS: Record<GenerationStatus, GenerationEventType> = {
  queued: 'generation.queued',
  running: 'generation.started',
  succeeded: 'generation.completed',
  failed: 'generation.failed',
  cancelled: 'generation.cancelled',
};

export const FINAL_EVENTS: ReadonlySet<GenerationEventType> = new Set(['generation.completed', 'generation.failed', 'generation.cancelled']);

/** Publishes without ever failing the work: events are hints, the row is the truth. */
export async function publish(
  deps: Pick<Deps, 'events' | 'logger'>,
  type: GenerationEventType,
  generationId: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  const event: GenerationEvent = { type, generation_id: generationId, data };
  try {
    await deps.events.publish(event);
  } catch (error) {
    deps.logger.warn({ generationId, type, err: error instanceof Error ? error.message : String(error) }, 'could not publish a generation event');
  }
}
