import { applyD1Migrations, createExecutionContext, createMessageBatch, getQueueResult, type D1Migration } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Kysely } from 'kysely';
import { D1Dialect } from 'kysely-d1';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseSchema } from '../../../src/adapters/db/schema.js';
import { createCloudflareQueue } from '../../../src/adapters/queue/cloudflare-queue.js';
import type { JobMessage, QueueProducer, QueueSendRequest } from '../../../src/adapters/queue/queue-messages.js';
import { systemClock } from '../../../src/ports/clock.js';
import type { Logger } from '../../../src/ports/logger.js';
import { DELIVERY_QUEUE } from './worker.js';

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };
const kysely = new Kysely<DatabaseSchema>({ dialect: new D1Dialect({ database: env.DB as never }) });

/** The file's tests share its D1 database: each names its jobs with an id of its own. */
const fresh = (label: string) => `${label}-${crypto.randomUUID()}`;

const until = async (check: () => Promise<boolean>, ms = 15_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The pushed JobQueue in workerd: D1 for the jobs, Miniflare's local Queue for their messages. */
describe('Cloudflare Queues JobQueue, in workerd', () => {
  beforeAll(async () => {
    await applyD1Migrations(env.DB, env.D1_MIGRATIONS as D1Migration[]);
  });

  it('delivers a job enqueued through the Queue binding to the Worker, whose consume() runs it with its payload', async () => {
    const jobs = createCloudflareQueue({ db: kysely, producer: env.JOBS as QueueProducer, clock: systemClock, logger: quiet });
    const key = fresh('delivered');
    await jobs.enqueue(DELIVERY_QUEUE, { key, prompt: 'a lighthouse at dusk' }, { id: key });
    const delivered = () => kysely.selectFrom('settings').select('value').where('key', '=', `delivered:${key}`).executeTakeFirst();
    await until(async () => (await delivered()) !== undefined);
    expect(JSON.parse((await delivered())?.value ?? 'null')).toEqual({ key, prompt: 'a lighthouse at dusk' });
    // Done: its row is gone, so a duplicate of the message would only be acked.
    await until(async () => (await kysely.selectFrom('jobs').select('id').where('id', '=', key).executeTakeFirst()) === undefined);
  });

  it("acks the runtime's message of a job that ran, and retries the message of one that threw, its error kept on the job", async () => {
    const sent: QueueSendRequest<JobMessage>[] = [];
    // Recorded, not sent: the Worker's own consumer is not to take these jobs.
    const producer: QueueProducer = { sendBatch: async (messages) => void sent.push(...messages) };
    const jobs = createCloudflareQueue({ db: kysely, producer, clock: systemClock, logger: quiet, retry: { attempts: 3, backoffMs: 5_000 } });
    jobs.process('runtime-batch', 2, async (payload) => {
      if (payload.fail === true) throw new Error('the provider went away');
    });
    const [good, bad] = [fresh('good'), fresh('bad')];
    await jobs.enqueueAll('runtime-batch', [
      { payload: {}, options: { id: good } },
      { payload: { fail: true }, options: { id: bad } },
    ]);
    const batch = createMessageBatch(
      'imagegate-contracts-jobs',
      sent.map(({ body }, n) => ({ id: `message-${n}`, timestamp: new Date(), attempts: 1, body })),
    );
    const ctx = createExecutionContext();
    await jobs.consume(batch);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(['message-0']);
    // The local runtime's result names the retried message but not its delay (the Node tests check the delay).
    expect(result.retryMessages.map((message) => message.msgId)).toEqual(['message-1']);
    expect(await kysely.selectFrom('jobs').select(['status', 'attempts', 'last_error']).where('id', '=', bad).executeTakeFirst()).toEqual({
      status: 'queued',
      attempts: 1,
      last_error: 'the provider went away',
    });
  });
});
