/**
 * The Worker the contract suites run in: they use its bindings through `env`, never its fetch handler. The Durable
 * Object classes the bindings name are exported here, as a deployed Worker's entry exports them, and its queue()
 * export hands the JOBS Queue's batches to the pushed JobQueue, as a deployed Worker's would.
 */
import { Kysely } from 'kysely';
import { D1Dialect } from 'kysely-d1';
import type { DatabaseSchema } from '../../../src/adapters/db/schema.js';
import { createCloudflareQueue } from '../../../src/adapters/queue/cloudflare-queue.js';
import type { MessageBatch, QueueProducer } from '../../../src/adapters/queue/queue-messages.js';
import { systemClock } from '../../../src/ports/clock.js';
import type { Logger } from '../../../src/ports/logger.js';

export { GenerationEventHub } from '../../../src/adapters/events/durable-object-generation-events.js';
export { RateLimitCounter } from '../../../src/adapters/rate-limit/durable-object-rate-limiter.js';

/** The job queue test/runtimes/workers/cloudflare-queue.test.ts enqueues on. */
export const DELIVERY_QUEUE = 'workers-contract';

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

export default {
  fetch: (): Response => new Response('imagegate contract suites', { status: 404 }),
  async queue(batch: MessageBatch, env: Record<string, unknown>): Promise<void> {
    const kysely = new Kysely<DatabaseSchema>({ dialect: new D1Dialect({ database: env.DB as never }) });
    const jobs = createCloudflareQueue({ db: kysely, producer: env.JOBS as QueueProducer, clock: systemClock, logger: quiet });
    // The job writes what it was handed where the test reads it back: a settings row named after the job.
    jobs.process(DELIVERY_QUEUE, 2, async (payload) => {
      await kysely
        .insertInto('settings')
        .values({ key: `delivered:${String(payload.key)}`, value: JSON.stringify(payload) })
        .execute();
    });
    await jobs.consume(batch);
  },
};
