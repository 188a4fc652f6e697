import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressLookup = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export const systemLookup: AddressLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

export class UnsafeWebhookUrl extends Error {
  override readonly name = 'UnsafeWebhookUrl';
}

/** The range name ipaddr.js gives an address, after folding IPv4-mapped IPv6 onto its IPv4 address. */
export function addressRange(ip: string): string {
  return ipaddr.process(ip).range();
}

/**
 * Only public unicast may be dialled. ipaddr.js names every special range (loopback, private, linkLocal,
 * uniqueLocal, carrierGradeNat, reserved, rfc6052 NAT64, 6to4, teredo, ...) and calls the rest `unicast`.
 */
export function isPublicAddress(ip: string): boolean {
  return ipaddr.isValid(ip) && addressRange(ip) === 'unicast';
}

export interface CheckOptions {
  lookup: AddressLookup;
  allowPrivateNetworks: boolean;
}

/**
 * Parses like a browser (so `http://2130706433/` and `http://0x7f.1/` become `127.0.0.1`), then requires
 * every address the host is or resolves to be public.
 */
export async function checkWebhookUrl(raw: string, options: CheckOptions): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeWebhookUrl('webhook_url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeWebhookUrl('webhook_url must be an absolute http(s) URL');
  if (url.username !== '' || url.password !== '') throw new UnsafeWebhookUrl('webhook_url must not carry a user name or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new UnsafeWebhookUrl('webhook_url must name a host');
  if (options.allowPrivateNetworks) return url;

  if (net.isIP(host) !== 0) {
    if (!isPublicAddress(host)) throw new UnsafeWebhookUrl(`webhook_url host ${host} is not a public address (${addressRange(host)})`);
    return url;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) throw new UnsafeWebhookUrl(`webhook_url host ${host} is not a public address (loopback)`);
  let answers;
  try {
    answers = await options.lookup(host);
  } catch (error) {
    throw new UnsafeWebhookUrl(`webhook_url host ${host} does not resolve (${error instanceof Error ? error.message : String(error)})`);
  }
  if (answers.length === 0) throw new UnsafeWebhookUrl(`webhook_url host ${host} does not resolve`);
  const blocked = answers.find((answer) => !isPublicAddress(answer.address));
  if (blocked !== undefined) {
    throw new UnsafeWebhookUrl(`webhook_url host ${host} resolves to ${blocked.address}, which is not a public address (${addressRange(blocked.address)})`);
  }
  return url;
}
