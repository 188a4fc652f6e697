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

/**
 * ALLOWED_IPS (comma-separated) as canonical addresses, and the entries that are none. The settings check it at
 * start-up and the HTTP gate compares with canonicalIp, so both agree on what one address is.
 */
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
