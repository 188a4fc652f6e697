export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'stopped';

export interface WebhookDeliveryRow {
  /** Also the `webhook-id` header: stable across retries. */
  id: string;
  /** Whose event it is: a batch's or a generation's, never both. */
  batch_id: string | null;
  generation_id: string | null;
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
 * the batch (BatchRepository.finishIfDone / cancel), a generation's events in the one that starts or ends it
 * (GenerationRepository); this side reads them back and records each attempt.
 */
export interface WebhookOutboxRepository {
  deliveries(batchId: string): Promise<WebhookDeliveryRow[]>;
  generationDeliveries(generationId: string): Promise<WebhookDeliveryRow[]>;
  findDelivery(id: string): Promise<WebhookDeliveryRow | undefined>;
  pendingDeliveries(): Promise<WebhookDeliveryRow[]>;
  attempts(deliveryId: string): Promise<WebhookAttemptRow[]>;
  recordAttempt(attempt: WebhookAttemptRow, next: { status: DeliveryStatus; next_attempt_at: string | null }): Promise<void>;
}
