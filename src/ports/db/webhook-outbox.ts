export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'stopped';

export interface WebhookDeliveryRow {
  /** Also the `webhook-id` header: stable across retries. */
  id: string;
  batch_id: string;
  event: string;
  url: string;
  /** The exact JSON body, fixed when the event happened. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptRow {
  delivery_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/**
 * The outbox of webhook events: a batch's final event is written in the same transaction that finishes
 * the batch (BatchRepository.finishIfDone / cancel); this side reads it back and records each attempt.
 */
export interface WebhookOutboxRepository {
  deliveries(batchId: string): Promise<WebhookDeliveryRow[]>;
  findDelivery(id: string): Promise<WebhookDeliveryRow | undefined>;
  pendingDeliveries(): Promise<WebhookDeliveryRow[]>;
  attempts(deliveryId: string): Promise<WebhookAttemptRow[]>;
  recordAttempt(attempt: WebhookAttemptRow, next: { status: DeliveryStatus; next_attempt_at: string | null }): Promise<void>;
}
