import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { Metrics } from '../../ports/metrics.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { AppEnv } from '../app-env.js';
import { renderError } from '../errors.js';
import { setResponseHeader } from '../response-headers.js';

export interface RateLimitOptions {
  limiter: RateLimiter;
  now?: () => number;
  /** Counts each 429 as `imagegate_rate_limit_refusals_total{limiter="key"}`. */
  metrics?: Pick<Metrics, 'rateLimitRefused'>;
}

/** Per key, by plan; every authenticated response carries the X-RateLimit-* headers, a 429 also Retry-After. */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  return async function rateLimitMiddleware(c, next) {
    const key = c.get('principal').key;
    if (key === undefined) return next();
    const decision = await options.limiter.consume(key.id, key.requestsPerMinute);
    const reset = Math.ceil(decision.resetAt / 1000);
    setResponseHeader(c, 'X-RateLimit-Limit', String(decision.limit));
    setResponseHeader(c, 'X-RateLimit-Remaining', String(decision.remaining));
    setResponseHeader(c, 'X-RateLimit-Reset', String(reset));
    if (!decision.allowed) {
      options.metrics?.rateLimitRefused('key');
      setResponseHeader(c, 'Retry-After', String(Math.max(1, Math.ceil((decision.resetAt - now()) / 1000))));
      return renderError(
        c,
        new ApiError('RATE_LIMITED', 'Rate limit exceeded', {
          limit: decision.limit,
          reset,
          message: `this key may make ${decision.limit} requests per minute; try again after ${new Date(reset * 1000).toISOString()}`,
        }),
      );
    }
    await next();
  };
}
