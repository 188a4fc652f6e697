import { fetch } from 'undici';
import type { WebhookTransport } from '../../ports/webhook-transport.js';
import { checkWebhookUrl, type AddressLookup } from './address-policy.js';
import { createSafeDispatcher } from './safe-dispatcher.js';

export interface HttpWebhookTransportOptions {
  lookup: AddressLookup;
  /** Development and tests only: lets webhooks reach loopback and private networks. */
  allowPrivateNetworks: boolean;
}

/** POSTs over undici with a dispatcher that re-checks the dialled address, so DNS rebinding cannot reach inside. */
export function createHttpWebhookTransport(options: HttpWebhookTransportOptions): WebhookTransport {
  const dispatcher = createSafeDispatcher({ lookup: options.lookup, allowPrivateNetworks: options.allowPrivateNetworks, connectTimeoutMs: 10_000 });
  return {
    async check(url) {
      await checkWebhookUrl(url, options);
    },
    async post(url, body, headers, timeoutMs) {
      try {
        const response = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', dispatcher, signal: AbortSignal.timeout(timeoutMs) });
        // The body is not needed, but reading it lets the connection be reused.
        await response.arrayBuffer().catch(() => undefined);
        return { status: response.status };
      } catch (error) {
        const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
        const name =
          error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
            ? `no answer within ${timeoutMs} ms`
            : error instanceof Error
              ? `${error.message}${cause}`
              : String(error);
        return { error: name };
      }
    },
  };
}
