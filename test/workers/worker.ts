/**
 * The Worker the contract suites run in: they use its bindings through `env`, never its fetch handler. The Durable
 * Object classes the bindings name are exported here, as a deployed Worker's entry exports them.
 */
export { RateLimitCounter } from '../../src/adapters/rate-limit/durable-object-rate-limiter.js';

export default {
  fetch: (): Response => new Response('imagegate contract suites', { status: 404 }),
};
