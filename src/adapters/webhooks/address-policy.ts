import ipaddr from 'ipaddr.js';

/**
 * Resolves a hostname to every address it has; injectable so tests and the connect-time check need no real DNS.
 * On Node it is the system resolver (system-lookup.ts); on Workers, DNS over HTTPS (doh-lookup.ts). This module is
 * runtime-neutral: it runs on both.
 */
export type AddressLookup = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** A canonical dotted quad: no leading zeros, no short or numeric forms (the URL parser canonicalises those first). */
const DOTTED_QUAD = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** 4 or 6 for an IP literal, 0 for anything else: what `node:net`'s isIP answers, without Node. */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (DOTTED_QUAD.test(text)) return 4;
  return text.includes(':') && ipaddr.IPv6.isValid(text) ? 6 : 0;
}

/** A webhook URL the service refuses to call; `reason` is safe to show to whoever submitted it. */
export class UnsafeWebhookUrl extends Error {
  override readonly name = 'UnsafeWebhookUrl';
  readonly reason: string;

  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

export interface CheckOptions {
  lookup: AddressLookup;
  /** Development and tests only: checks the URL's shape but lets it point at loopback and private networks. */
  allowPrivateNetworks: boolean;
}

// IANA has only ever allocated global unicast IPv6 from 2000::/3. ipaddr.js calls everything it has no name for
// "unicast", which would let through the deprecated IPv4-compatible block ::/96 (`http://[::127.0.0.1]/` serialises
// to `[::7f00:1]`) and other never-allocated space, so IPv6 must also fall inside 2000::/3.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV4_COMPATIBLE_V6 = ipaddr.IPv6.parseCIDR('::/96');

// ipaddr.js deliberately parses the dotted `::a.b.c.d` form as IPv4-mapped `::ffff:a.b.c.d`, but it is really the
// IPv4-compatible address ::a.b.c.d (which is how the system resolver prints such AAAA records), so catch it first.
const IPV4_COMPATIBLE_DOTTED = /^::(?:\d{1,3}\.){3}\d{1,3}(?:%.*)?$/;

/**
 * Names the special-purpose range an address is in ("unicast" when none), after folding IPv4-mapped IPv6 onto
 * IPv4 so `::ffff:127.0.0.1` is judged as 127.0.0.1. "invalid" for anything but a plain IP literal: legacy forms
 * such as `127.1` or `0x7f.1` are for the URL parser or the resolver to canonicalise, not for us to guess at.
 */
export function addressRange(ip: string): string {
  if (ipVersion(ip) === 0) return 'invalid';
  if (IPV4_COMPATIBLE_DOTTED.test(ip)) return 'ipv4Compatible';
  const address = ipaddr.process(ip);
  const range = address.range();
  if (range !== 'unicast' || address.kind() === 'ipv4') return range;
  if (address.match(GLOBAL_UNICAST_V6)) return 'unicast';
  return address.match(IPV4_COMPATIBLE_V6) ? 'ipv4Compatible' : 'reserved';
}

/**
 * True only for public unicast, the sole kind of address a caller-supplied webhook may reach. Refuses loopback,
 * private, link-local (cloud metadata), unique-local, unspecified, multicast, broadcast, CGNAT, reserved and
 * documentation ranges, and the IPv6 transition ranges (NAT64, 6to4, Teredo) that can tunnel to IPv4 inside.
 */
export function isPublicAddress(ip: string): boolean {
  return addressRange(ip) === 'unicast';
}

// `localhost` and its subdomains mean loopback (RFC 6761) whatever DNS says, so they are refused without a lookup.
function isLocalhostName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Validates a caller-supplied webhook URL at submission and returns it parsed: absolute http(s) without
 * credentials and, unless private networks are allowed, a host that is or resolves only to public unicast.
 * The dispatcher checks again at connect time, since what a name resolves to can change (DNS rebinding).
 */
/** The operator's way out, named in every refusal of a private address: receivers on your own network are common in development. */
const PRIVATE_HINT = '; to deliver webhooks to your own network, the operator sets WEBHOOK_ALLOW_PRIVATE_NETWORKS=true';

export async function checkWebhookUrl(raw: string, options: CheckOptions): Promise<URL> {
  let url: URL;
  try {
    // WHATWG parsing canonicalises numeric IPv4 tricks (2130706433, 0x7f.1, 017700000001, 127.1) to 127.0.0.1
    // and lower-cases names, so the checks below see what undici will actually connect to.
    url = new URL(raw);
  } catch {
    throw new UnsafeWebhookUrl('webhook_url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeWebhookUrl('webhook_url must be an absolute http(s) URL');
  // Credentials would be sent with every delivery and stored alongside the batch; a signed webhook needs none.
  if (url.username !== '' || url.password !== '') throw new UnsafeWebhookUrl('webhook_url must not contain a username or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new UnsafeWebhookUrl('webhook_url must have a host');
  if (options.allowPrivateNetworks) return url;

  if (ipVersion(host) !== 0) {
    const range = addressRange(host);
    if (range !== 'unicast') throw new UnsafeWebhookUrl(`webhook_url host ${host} is not a public address (${range})${PRIVATE_HINT}`);
    return url;
  }
  if (isLocalhostName(host)) throw new UnsafeWebhookUrl(`webhook_url host ${host} is not a public address (loopback)${PRIVATE_HINT}`);

  let answers: { address: string }[];
  try {
    answers = await options.lookup(host);
  } catch (error) {
    throw new UnsafeWebhookUrl(`webhook_url host ${host} does not resolve (${error instanceof Error ? error.message : String(error)})`);
  }
  if (answers.length === 0) throw new UnsafeWebhookUrl(`webhook_url host ${host} does not resolve`);
  // Every address must be public: a connection may use any of them, and a mixed answer is a classic rebinding setup.
  const blocked = answers.find((answer) => !isPublicAddress(answer.address));
  if (blocked !== undefined) {
    throw new UnsafeWebhookUrl(
      `webhook_url host ${host} resolves to ${blocked.address}, which is not a public address (${addressRange(blocked.address)})${PRIVATE_HINT}`,
    );
  }
  return url;
}
