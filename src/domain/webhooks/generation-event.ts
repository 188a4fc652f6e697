import { pendingDelivery } from './delivery-record.js';
import type { GenerationFailure, GenerationRow, GenerationStatus, GenerationWebhookEvent, ImageRow, WebhookDeliveryRow } from '../../ports/database.js';
import type { Deps } from '../context.js';
import { toImageRecord } from '../images/image-record.js';
import { scheduleFirstAttempt } from './batch-event.js';

/** What a generation's webhook is sent when the caller names no events: its end, whichever way it went but a cancel. */
export const DEFAULT_GENERATION_EVENTS: readonly GenerationWebhookEvent[] = ['generation.completed', 'generation.failed'];

const STATUS_OF: Record<GenerationWebhookEvent, GenerationStatus> = {
  'generation.started': 'running',
  'generation.completed': 'succeeded',
  'generation.failed': 'failed',
  'generation.cancelled': 'cancelled',
};

/**
 * The outbox row for one of a generation's events, when its webhook asked for that event; stored by the repository
 * in the same unit of work as the change it reports. One delivery per generation and event: its id derives from
 * both, so a second run of the same change stores nothing more.
 */
export function generationEventDelivery(
  deps: Pick<Deps, 'blobs' | 'clock'>,
  row: Pick<GenerationRow, 'id' | 'prompt' | 'webhook_url' | 'webhook_events'>,
  event: GenerationWebhookEvent,
  outcome: { image?: ImageRow; failure?: GenerationFailure } = {},
): WebhookDeliveryRow | undefined {
  if (row.webhook_url === null || !(row.webhook_events ?? DEFAULT_GENERATION_EVENTS).includes(event)) return undefined;
  const now = deps.clock.now().toISOString();
  const image =
    outcome.image === undefined ? undefined : { id: outcome.image.id, prompt: outcome.image.prompt, r2_url: toImageRecord(outcome.image, deps.blobs).r2_url };
  const error = outcome.failure === undefined ? undefined : { error: outcome.failure.error, code: outcome.failure.code };
  // created_at is when the event happened; the webhook-timestamp header is when this attempt was sent.
  const payload = {
    event,
    generation_id: row.id,
    status: STATUS_OF[event],
    ...(image === undefined ? {} : { image }),
    ...(error === undefined ? {} : { error }),
    created_at: now,
  };
  return pendingDelivery(
    { batch_id: null, generation_id: row.id },
    { id: `whd_${row.id}_${event.replace('generation.', '')}`, event, url: row.webhook_url, payload },
    now,
  );
}

/**
 * Queues the first attempt of a stored event. A queue that refuses it now is not the generation's failure: the
 * delivery is in the outbox, pending, and the periodic sweep queues it again.
 */
export async function scheduleGenerationEvent(
  deps: Pick<Deps, 'queue' | 'clock' | 'batchSettings' | 'logger'>,
  delivery: WebhookDeliveryRow | undefined,
): Promise<void> {
  if (delivery === undefined) return;
  try {
    await scheduleFirstAttempt(deps, delivery.id);
  } catch (error) {
    deps.logger.warn(
      { deliveryId: delivery.id, err: error instanceof Error ? error.message : String(error) },
      'could not queue a generation webhook; the sweep queues it again',
    );
  }
}
