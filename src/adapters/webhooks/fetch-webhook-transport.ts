import type { WebhookTransport } from '../../ports/webhook-transport.js';
import { checkWebhookUrl, type AddressLookup } from './address-policy.js';

export interface FetchWebhookTransportOptions {
  /** Where the check resolves names: DNS over HTTPS on Workers (doh-lookup.ts). */
  lookup: AddressLookup;
  /** Development and tests only: lets webhooks reach loopback and private networks. */
  allowPrivateNetworks: boolean;
  fetch?: typeof fetch;
}

/**
 * Webhooks over plain `fetch`, for runtimes that cannot pin the address they dial (Workers: no socket-level DNS,
 * no dispatcher). What is checked instead, before every delivery and not only at submission: the URL's shape, an
 * IP literal's range, `localhost` names, and that every address the name resolves to (over DNS-over-HTTPS) is
 * public unicast. Redirects are never followed. A name that changes its answer between the check and the
 * connection (DNS rebinding) is the gap pinning closes on Node; on Workers the connection leaves from Cloudflare's
 * edge, which has no route to the operator's private network, loopback or link-local metadata addresses.
 */
export function createFetchWebhookTransport(options: FetchWebhookTransportOptions): WebhookTransport {
  const doFetch = options.fetch ?? fetch;
  return {
    async check(url) {
      await checkWebhookUrl(url, options);
    },
    async post(url, body, headers, timeoutMs) {
      try {
        // Checked again at delivery: the name may resolve elsewhere now than when the batch was accepted.
        await checkWebhookUrl(url, options);
        const response = await doFetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
        await response.arrayBuffer().catch(() => undefined);
        return { status: response.status };
      } catch (error) {
        if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return { error: `no answer within ${timeoutMs} ms` };
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
