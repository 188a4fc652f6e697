import { createFlexibleRateLimiter } from '../../src/adapters/rate-limit/flexible-rate-limiter.js';
import { createTestClock } from '../../src/test-support/harness.js';
import { describeRateLimiterContract } from './rate-limiter.contract.js';

describeRateLimiterContract('rate-limiter-flexible in memory', async () => {
  const clock = createTestClock();
  return { limiter: createFlexibleRateLimiter({ clock }), setTime: (iso) => clock.set(iso) };
});
