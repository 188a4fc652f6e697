import type { WebhookAttemptRow, WebhookDeliveryRow } from '../../ports/database.js';
import type { Deps } from '../context.js';

/** A delivery and its attempts, as a batch's and a generation's `webhook.deliveries` show them. */
export const toDeliveryRecord = (delivery: WebhookDeliveryRow, attempts: readonly WebhookAttemptRow[]) => ({
  id: delivery.id,
  event: delivery.event,
  url: delivery.url,
  status: delivery.status,
  attempt_count: delivery.attempts,
  next_attempt_at: delivery.next_attempt_at,
  attempts: attempts.map((a) => ({ attempt: a.attempt, at: a.at, status_code: a.status_code, error: a.error, duration_ms: a.duration_ms })),
});

export type DeliveryRecord = ReturnType<typeof toDeliveryRecord>;

export const deliveryRecords = (deps: Pick<Deps, 'db'>, deliveries: readonly WebhookDeliveryRow[]): Promise<DeliveryRecord[]> =>
  Promise.all(deliveries.map(async (delivery) => toDeliveryRecord(delivery, await deps.db.webhookOutbox.attempts(delivery.id))));

/** An event's delivery before its first attempt: the outbox row a batch's and a generation's events both start as. */
export const pendingDelivery = (
  owner: { batch_id: string; generation_id: null } | { batch_id: null; generation_id: string },
  delivery: { id: string; event: string; url: string; payload: unknown },
  now: string,
): WebhookDeliveryRow => ({
  id: delivery.id,
  ...owner,
  event: delivery.event,
  url: delivery.url,
  payload: JSON.stringify(delivery.payload),
  status: 'pending',
  attempts: 0,
  next_attempt_at: now,
  created_at: now,
  updated_at: now,
});
