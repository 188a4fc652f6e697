import type { MiddlewareHandler } from 'hono';
import { canonicalIp } from '../../domain/ip-addresses.js';

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
