import type { WebhookDelivery } from '../../api/types.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatDateTime } from '../../lib/format.js';

/** Every attempt to tell the webhook, with the status code the receiver answered. */
export function WebhookDeliveries({ url, deliveries }: { url: string | null; deliveries: readonly WebhookDelivery[] }) {
  return (
    <section aria-labelledby="batch-webhook">
      <h2 id="batch-webhook">Webhook</h2>
      {url === null ? (
        <p class="muted">This batch has no webhook URL.</p>
      ) : deliveries.length === 0 ? (
        <p class="muted">Nothing sent yet to {url}: the event goes out when the batch is done.</p>
      ) : (
        deliveries.map((delivery) => (
          <div key={delivery.id} class="delivery">
            <p>
              <code>{delivery.event}</code> to <span class="break">{delivery.url}</span> <StatusBadge status={delivery.status} />
              {delivery.next_attempt_at !== null && <span class="muted"> · next attempt {formatDateTime(delivery.next_attempt_at)}</span>}
            </p>
            <div class="table-scroll" tabIndex={0} role="region" aria-label={`Attempts of ${delivery.event}`}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Attempt</th>
                    <th scope="col">At</th>
                    <th scope="col">Status code</th>
                    <th scope="col">Error</th>
                    <th scope="col">Took</th>
                  </tr>
                </thead>
                <tbody>
                  {delivery.attempts.map((attempt) => (
                    <tr key={attempt.attempt}>
                      <td>{attempt.attempt}</td>
                      <td>{formatDateTime(attempt.at)}</td>
                      <td>{attempt.status_code ?? '—'}</td>
                      <td>{attempt.error ?? ''}</td>
                      <td>{attempt.duration_ms} ms</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        ))
      )}
    </section>
  );
}
