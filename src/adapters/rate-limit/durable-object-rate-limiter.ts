import { DurableObject } from 'cloudflare:workers';
import type { Clock } from '../../ports/clock.js';
import type { RateLimitDecision, RateLimiter } from '../../ports/rate-limiter.js';
import { consumeWindow, type WindowCount } from './fixed-window.js';

const STORED = 'window';

/**
 * One key's counter (one object per key, by name). A Durable Object runs one call at a time, and its storage
 * writes are confirmed before the answer leaves, so a limit is exact however many Workers count the same key,
 * and it survives the object being evicted. Workers' own rate-limit binding is approximate (counts are kept per
 * Cloudflare location and eventually consistent), which the contract's exact limit does not allow.
 */
export class RateLimitCounter extends DurableObject {
  async consume(limit: number, nowMs: number): Promise<RateLimitDecision> {
    const { next, decision } = consumeWindow(await this.ctx.storage.get<WindowCount>(STORED), limit, nowMs);
    await this.ctx.storage.put(STORED, next);
    return decision;
  }
}

/** The part of a Durable Object namespace binding this limiter uses (`DurableObjectNamespace<RateLimitCounter>`). */
export interface RateLimitCounters {
  idFromName(name: string): unknown;
  get(id: unknown): { consume(limit: number, nowMs: number): Promise<RateLimitDecision> };
}

/** Per-key limits counted by one RateLimitCounter per key; the clock is the Worker's, sent with each request. */
export function createDurableObjectRateLimiter(counters: RateLimitCounters, clock: Clock): RateLimiter {
  return {
    async consume(key, limitPerMinute) {
      const stub = counters.get(counters.idFromName(key));
      return stub.consume(limitPerMinute, clock.now().getTime());
    },
  };
}
