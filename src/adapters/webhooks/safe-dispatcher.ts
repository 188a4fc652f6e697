import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { addressRange, isPublicAddress, UnsafeWebhookUrl, type AddressLookup } from './address-policy.js';

export interface SafeDispatcherOptions {
  lookup: AddressLookup;
  /** Development and tests only: dial whatever the lookup returns, loopback and private networks included. */
  allowPrivateNetworks: boolean;
  connectTimeoutMs?: number;
}

// net.connect may ask for one family (a number or, per the typings, a name); 0 means either.
function wantedFamily(family: number | 'IPv4' | 'IPv6' | undefined): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/**
 * Adapts an AddressLookup to the callback-style `lookup` option of net/tls.connect. When `publicOnly`, answers only
 * with public addresses, so the address actually dialled is checked at connect time and a name that was public at
 * submission but now resolves inside (DNS rebinding) cannot be reached.
 */
function connectLookup(lookup: AddressLookup, publicOnly: boolean): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family = wantedFamily(lookupOptions.family);
    lookup(hostname).then(
      (entries) => {
        const candidates = entries.filter((entry) => family === 0 || entry.family === family);
        const allowed = publicOnly ? candidates.filter((entry) => isPublicAddress(entry.address)) : candidates;
        const first = allowed[0];
        if (first === undefined) {
          const refused = candidates[0];
          const reason =
            refused === undefined
              ? `webhook_url host ${hostname} does not resolve`
              : `webhook_url host ${hostname} resolves to ${refused.address}, which is not a public address (${addressRange(refused.address)})`;
          callback(new UnsafeWebhookUrl(reason), '');
          return;
        }
        // With autoSelectFamily (the Node 20 default) net asks for every address and tries them in turn.
        if (lookupOptions.all === true) {
          const all: LookupAddress[] = allowed.map((entry) => ({ address: entry.address, family: entry.family }));
          callback(null, all);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    );
  };
}

function refusal(address: string): UnsafeWebhookUrl {
  return new UnsafeWebhookUrl(`webhook_url host ${address} is not a public address (${addressRange(address)})`);
}

/**
 * An undici dispatcher for webhook POSTs that refuses to connect anywhere but public unicast addresses, checked
 * against the address dialled rather than the one seen at submission. Use with `redirect: 'manual'`.
 */
export function createSafeDispatcher(options: SafeDispatcherOptions): Dispatcher {
  const timeout = options.connectTimeoutMs ?? 10_000;
  if (options.allowPrivateNetworks) {
    // Still resolve through the injected lookup, so development and tests see the same names as the checks did.
    return new Agent({ connect: { timeout, lookup: connectLookup(options.lookup, false) } });
  }

  const connectPublic = buildConnector({ timeout, lookup: connectLookup(options.lookup, true) });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    // net.connect skips `lookup` for IP literals, so those are checked here, before any packet is sent.
    const host = connectOptions.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !isPublicAddress(host)) {
      callback(refusal(host), null);
      return;
    }
    connectPublic(connectOptions, (error, socket) => {
      if (error !== null) {
        callback(error, null);
        return;
      }
      // Defence in depth: whatever path produced the socket, refuse it if the peer is not public.
      const remote = socket.remoteAddress ?? '';
      if (!isPublicAddress(remote)) {
        socket.destroy();
        callback(refusal(remote === '' ? host : remote), null);
        return;
      }
      callback(null, socket);
    });
  };
  return new Agent({ connect });
}
