import type { MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';

export interface ParsedAllowList {
  /** Normalised addresses (IPv6 in canonical lower-case form). */
  valid: string[];
  invalid: string[];
}

/** Canonical text of an address, so `2001:DB8::1` and `2001:db8:0::1` compare equal; undefined if not an IP. */
export function canonicalIp(text: string): string | undefined {
  const trimmed = text.trim();
  if (!ipaddr.isValid(trimmed)) return undefined;
  // ipaddr.isValid accepts shorthand like "127.1"; the spec compares exact addresses, so require full forms.
  if (ipaddr.IPv4.isValid(trimmed) && !ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return undefined;
  // process() folds IPv4-mapped IPv6 (::ffff:1.2.3.4) onto the IPv4 address it carries.
  const address = ipaddr.process(trimmed);
  return address.kind() === 'ipv6' ? address.toNormalizedString() : address.toString();
}

export function parseAllowList(raw: string): ParsedAllowList {
  const entries = raw.split(',').map((entry) => entry.trim());
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    const canonical = canonicalIp(entry);
    if (canonical === undefined) invalid.push(entry);
    else valid.push(canonical);
  }
  if (valid.length === 0 && invalid.length === 0) invalid.push(raw);
  return { valid, invalid };
}

export interface IpAllowlistOptions {
  allowedIps: readonly string[];
  /** Header the edge sets with the client's address; X-Forwarded-For is never read because clients can forge it. */
  header?: string;
}

/** The allow-list mode's gate: runs before anything else and answers a plain-text 403 `Forbidden`. */
export function ipAllowlist(options: IpAllowlistOptions): MiddlewareHandler {
  const header = options.header ?? 'CF-Connecting-IP';
  const allowed = new Set(options.allowedIps.map((ip) => canonicalIp(ip) ?? ip));

  return async function ipAllowlistMiddleware(c, next) {
    const claimed = c.req.header(header);
    const client = claimed === undefined ? undefined : canonicalIp(claimed);
    if (client === undefined || !allowed.has(client)) {
      return c.text('Forbidden', 403);
    }
    await next();
  };
}
