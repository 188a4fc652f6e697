import { Webhook } from 'standardwebhooks';
import type { Deps } from '../context.js';
import { enqueueJob, jobId } from '../jobs.js';
import { currentTraceCarrier, inSpan, markFailed } from '../../ports/tracer.js';

export const WEBHOOK_TIMEOUT_MS = 15_000;

/**
 * One delivery attempt, signed per Standard Webhooks: the same `webhook-id` on every attempt, a fresh
 * timestamp and signature each time. 2xx is delivered, 410 stops, anything else (redirects included,
 * which are never followed) is retried on the schedule until it runs out.
 */
export async function deliverWebhook(deps: Deps, deliveryId: string): Promise<void> {
  const delivery = await deps.db.webhookOutbox.findDelivery(deliveryId);
  if (delivery === undefined || delivery.status !== 'pending') return;

  const attempt = delivery.attempts + 1;
  const sentAt = deps.clock.now();
  const signature = new Webhook(deps.batchSettings.webhookSecret).sign(delivery.id, sentAt, delivery.payload);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'imagegate-webhooks/1',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const started = performance.now();
  // A client span per attempt; its W3C `traceparent` goes out with the request, so the receiver can continue the trace.
  const result = await inSpan(
    'webhook.deliver',
    { kind: 'client', attributes: { 'http.request.method': 'POST', 'imagegate.webhook.delivery_id': delivery.id, 'imagegate.webhook.attempt': attempt } },
    async (span) => {
      const answer = await deps.webhooks.post(delivery.url, delivery.payload, { ...headers, ...currentTraceCarrier() }, WEBHOOK_TIMEOUT_MS);
      if ('status' in answer) span.setAttribute('http.response.status_code', answer.status);
      // An answer of 4xx or 5xx, or none at all, is a failed attempt (a client span's status, in OpenTelemetry's HTTP conventions).
      if ('error' in answer) markFailed(span, answer.error);
      else if (answer.status >= 400) markFailed(span, `answered ${answer.status}`);
      return answer;
    },
  );
  const duration = Math.round(performance.now() - started);

  const status = 'status' in result ? result.status : null;
  const error = 'error' in result ? result.error : status !== null && (status < 200 || status >= 300) ? `answered ${status}` : null;
  const schedule = deps.batchSettings.retryScheduleSeconds;
  const delivered = status !== null && status >= 200 && status < 300;
  const stopped = status === 410;
  const retryDelay = delivered || stopped ? undefined : schedule[attempt];
  const nextAt = retryDelay === undefined ? null : new Date(deps.clock.now().getTime() + retryDelay * 1000);

  const outcome = delivered ? 'delivered' : stopped ? 'stopped' : nextAt === null ? 'failed' : 'retrying';
  await deps.db.webhookOutbox.recordAttempt(
    { delivery_id: delivery.id, attempt, at: sentAt.toISOString(), status_code: status, error, duration_ms: duration },
    { status: outcome === 'retrying' ? 'pending' : outcome, next_attempt_at: nextAt?.toISOString() ?? null },
  );
  deps.metrics.webhookDelivery(outcome);
  deps.logger.info({ deliveryId, batchId: delivery.batch_id, generationId: delivery.generation_id, attempt, status, error, ms: duration }, 'webhook attempt');
  if (nextAt !== null) await enqueueJob(deps.queue, 'webhook', { deliveryId }, { id: jobId('webhook', delivery.id, attempt + 1), runAt: nextAt });
}
