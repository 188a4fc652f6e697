import { ApiError } from '../../../domain/errors.js';
import type { Metrics } from '../../../ports/metrics.js';
import { renderError } from '../../errors.js';
import type { Api } from '../types.js';

export const METRICS_PATH = '/metrics';

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;
const digest = async (text: string): Promise<Uint8Array> => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/** Every byte is compared whatever the earlier ones were: no early exit for timing to reveal. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/**
 * Whether `Authorization` carries the metrics token. Compared as digests in constant time: equal lengths whatever
 * was sent, so timing reveals neither the token's length nor how much of it a guess got right.
 */
export async function scrapeAuthorized(authorization: string | undefined, token: string): Promise<boolean> {
  const presented = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  const same = sameBytes(await digest(presented ?? ''), await digest(token));
  return presented !== undefined && same;
}

/** The 401 a scrape without the right token gets, in the API's error shape. */
export function scrapeRefused(authorization: string | undefined): ApiError {
  return new ApiError('UNAUTHORIZED', 'Invalid metrics token', {
    message: authorization === undefined ? 'send Authorization: Bearer <METRICS_TOKEN>' : 'the bearer token is not the METRICS_TOKEN of this server',
  });
}

/**
 * `GET /metrics`, Prometheus' text format, outside the API keys and their rate limits: a scraper holds the
 * METRICS_TOKEN, not an API key. Registered only when that token is set; without it the path is unknown (404).
 */
export function registerMetrics(app: Api, metrics: Pick<Metrics, 'scrape'>, token: string): void {
  app.get(METRICS_PATH, async (c) => {
    const authorization = c.req.header('Authorization');
    if (!(await scrapeAuthorized(authorization, token))) return renderError(c, scrapeRefused(authorization), { 'WWW-Authenticate': 'Bearer' });
    const { contentType, body } = await metrics.scrape();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
}
