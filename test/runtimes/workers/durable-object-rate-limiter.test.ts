import { env } from 'cloudflare:workers';
import { createDurableObjectRateLimiter, type RateLimitCounters } from '../../../src/adapters/rate-limit/durable-object-rate-limiter.js';
import type { RateLimiter } from '../../../src/ports/rate-limiter.js';
import { describeRateLimiterContract } from '../../contracts/rate-limiter.contract.js';

/** The RateLimiter contract against one Durable Object per key, as workerd runs them locally. */
const counters = env.RATE_LIMITS as RateLimitCounters;
let run = 0;

describeRateLimiterContract(
  'a Durable Object per key, in workerd',
  async () => {
    // The objects outlive a test: each test counts its keys under a name of its own.
    run += 1;
    const prefix = `run-${run}:`;
    let now = Date.now();
    const clock = { now: () => new Date(now) };
    const limiter = (): RateLimiter => {
      const inner = createDurableObjectRateLimiter(counters, clock);
      return { consume: (key, limit) => inner.consume(`${prefix}${key}`, limit) };
    };
    return { limiter: limiter(), setTime: (iso) => void (now = Date.parse(iso)), peer: async () => limiter() };
  },
  { shared: true },
);
