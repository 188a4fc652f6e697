import type { AddressLookup } from './address-policy.js';

/** Cloudflare's resolver, answering DNS over HTTPS in its JSON form (RFC 8484's GET with `accept: application/dns-json`). */
export const CLOUDFLARE_DOH_URL = 'https://cloudflare-dns.com/dns-query';

const RECORD_TYPES = [
  { name: 'A', code: 1, family: 4 },
  { name: 'AAAA', code: 28, family: 6 },
] as const;

/** DNS rcodes worth naming in a refusal; others are given by number. */
const RCODES: Record<number, string> = { 2: 'SERVFAIL', 3: 'NXDOMAIN', 5: 'REFUSED' };

interface DohAnswer {
  Status?: unknown;
  Answer?: unknown;
}

/**
 * Every A and AAAA address of a name, through a DNS-over-HTTPS resolver reached with `fetch`: the lookup a Worker
 * can make, having no socket-level resolver. CNAMEs are followed by the resolver; only address records count.
 * Runtime-neutral (fetch only), so the same lookup is tested on Node against a loopback resolver.
 */
export function createDohLookup(options: { fetch?: typeof fetch; url?: string; timeoutMs?: number } = {}): AddressLookup {
  const doFetch = options.fetch ?? fetch;
  const endpoint = options.url ?? CLOUDFLARE_DOH_URL;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const query = async (hostname: string, type: (typeof RECORD_TYPES)[number]): Promise<{ address: string; family: 4 | 6 }[]> => {
    const url = `${endpoint}?name=${encodeURIComponent(hostname)}&type=${type.name}`;
    const response = await doFetch(url, { headers: { accept: 'application/dns-json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`the DNS-over-HTTPS resolver answered ${response.status}`);
    const body = (await response.json()) as DohAnswer;
    const status = typeof body.Status === 'number' ? body.Status : -1;
    // NXDOMAIN for one type is NXDOMAIN for the name; an empty NOERROR just means no records of this type.
    if (status !== 0) throw new Error(`the name does not resolve (${RCODES[status] ?? `DNS status ${status}`})`);
    const records = Array.isArray(body.Answer) ? body.Answer : [];
    return records.flatMap((record: unknown) => {
      if (typeof record !== 'object' || record === null) return [];
      const { type: code, data } = record as { type?: unknown; data?: unknown };
      return code === type.code && typeof data === 'string' ? [{ address: data, family: type.family }] : [];
    });
  };
  return async (hostname) => (await Promise.all(RECORD_TYPES.map((type) => query(hostname, type)))).flat();
}
