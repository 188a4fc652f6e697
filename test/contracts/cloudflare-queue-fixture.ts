import { pino } from 'pino';
import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import { createCloudflareQueue, type CloudflareJobQueue } from '../../src/adapters/queue/cloudflare-queue.js';
import type { JobQueue } from '../../src/ports/job-queue.js';
import { createTestClock } from '../../src/test-support/harness.js';
import { killSwitch } from './database-queue-fixture.js';
import { createFakeQueue, type Envelope } from './fake-cloudflare-queue.js';
import { CONTRACT_RETRY, type QueueFixture } from './job-queue.contract.js';

/** Clock time a claim holds: a restart (`reopen`) lets it run out. */
const CLAIM_MS = 600;
/** Messages per pushed batch, as a consumer's max_batch_size would cap them. */
const BATCH_SIZE = 10;

interface Consumer {
  queue: CloudflareJobQueue;
  kill(): void;
  killed: boolean;
  closed: boolean;
  /** What it was handed and has not settled, for Queues to deliver again if it dies. */
  holding: Set<Envelope>;
}

/**
 * The JobQueue contract's fixture for the pushed queue: every "process" is a Worker consuming one in-memory Queue
 * on one SQLite database, and a pump plays Cloudflare, pushing due messages every few ms as batches to the live
 * consumers in turn. `drain` waits until nothing is due and no batch is being consumed.
 */
export async function cloudflareQueueFixture(): Promise<QueueFixture> {
  const db = createSqliteDatabase(':memory:');
  await db.migrate();
  const clock = createTestClock();
  const logger = pino({ level: 'silent' });
  const fake = createFakeQueue(clock);
  const consumers: Consumer[] = [];
  let turn = 0;

  const pump = setInterval(() => {
    const live = consumers.filter((consumer) => !consumer.killed && !consumer.closed);
    if (live.length === 0 || !fake.hasDue()) return;
    turn += 1;
    const consumer = live[turn % live.length];
    if (consumer === undefined) return;
    const envelopes = fake.take(BATCH_SIZE);
    for (const envelope of envelopes) consumer.holding.add(envelope);
    void fake.deliver(consumer.queue, envelopes, () => consumer.killed).finally(() => envelopes.forEach((envelope) => consumer.holding.delete(envelope)));
  }, 5);

  const start = (): JobQueue => {
    const cut = killSwitch();
    const queue = createCloudflareQueue({
      db: db.kysely.withPlugin(cut.plugin),
      producer: fake.producer,
      clock,
      logger,
      leaseMs: CLAIM_MS,
      retry: CONTRACT_RETRY,
    });
    const consumer: Consumer = { queue, kill: cut.kill, killed: false, closed: false, holding: new Set() };
    consumers.push(consumer);
    return {
      ...queue,
      async drain() {
        for (;;) {
          await queue.drain();
          if (!fake.hasDue() && !fake.busy()) return;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      },
      async close() {
        consumer.closed = true;
        await queue.close();
      },
    };
  };
  const first = start();
  const [firstConsumer] = consumers;
  return {
    queue: first,
    advance: (ms) => clock.advance(ms),
    reopen: async () => {
      // The Worker died (its writes fail from now on): Queues deliver again what it held, and its claims run out.
      if (firstConsumer !== undefined) {
        firstConsumer.kill();
        firstConsumer.killed = true;
        fake.redeliver([...firstConsumer.holding]);
      }
      clock.advance(CLAIM_MS + 1);
      return start();
    },
    peer: async () => start(),
    close: async () => {
      clearInterval(pump);
      await Promise.all(consumers.filter((consumer) => !consumer.killed && !consumer.closed).map((consumer) => consumer.queue.close()));
      await db.close();
    },
  };
}
