import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { KyselyDatabase } from '../../src/adapters/db/kysely-database.js';
import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import { createCloudflareQueue } from '../../src/adapters/queue/cloudflare-queue.js';
import { JobHandedBack, type JobRun } from '../../src/ports/job-queue.js';
import { createTestClock } from '../../src/test-support/harness.js';
import { createFakeQueue } from './fake-cloudflare-queue.js';

const RETRY = { attempts: 3, backoffMs: 2_000 };
const CLAIM_MS = 60_000;
const opened: KyselyDatabase[] = [];

/** The adapter on SQLite and a fake Queue that delivers only when a test says so. */
async function setUp() {
  const db = createSqliteDatabase(':memory:');
  opened.push(db);
  await db.migrate();
  const clock = createTestClock();
  const fake = createFakeQueue(clock);
  const queue = createCloudflareQueue({ db: db.kysely, producer: fake.producer, clock, logger: pino({ level: 'silent' }), retry: RETRY, leaseMs: CLAIM_MS });
  const row = (id: string) => db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return { db, clock, fake, queue, row };
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

describe('Cloudflare Queues JobQueue', () => {
  it('sends one message per job actually added: an id already there, or given twice, sends nothing more', async () => {
    const { fake, queue } = await setUp();
    const seen: unknown[] = [];
    queue.process('q', 2, async (payload) => void seen.push(payload.n));
    await queue.enqueue('q', { n: 1 }, { id: 'a' });
    await queue.enqueue('q', { n: 1 }, { id: 'a' });
    await queue.enqueueAll('q', [
      { payload: { n: 1 }, options: { id: 'a' } },
      { payload: { n: 2 }, options: { id: 'b' } },
      { payload: { n: 2 }, options: { id: 'b' } },
    ]);
    expect(fake.pending.map((envelope) => envelope.body)).toEqual([
      { queue: 'q', id: 'a' },
      { queue: 'q', id: 'b' },
    ]);
    await fake.deliverDue(queue);
    expect(seen.sort()).toEqual([1, 2]);
    expect(fake.outcomes).toEqual([
      { jobId: 'a', outcome: 'ack' },
      { jobId: 'b', outcome: 'ack' },
    ]);
  });

  it('sends again, when asked (the Cron Trigger), a message for each job left without one, and runs each job once', async () => {
    const { clock, fake, queue, row } = await setUp();
    const ran: unknown[] = [];
    queue.process('q', 2, async (payload) => void ran.push(payload.n));
    await queue.enqueueAll('q', [
      { payload: { n: 1 }, options: { id: 'lost' } },
      { payload: { n: 2 }, options: { id: 'later', runAt: new Date(clock.now().getTime() + 60_000) } },
    ]);
    // The messages are gone (wrangler dev killed, or a consumer past its retries); the rows are not.
    fake.pending.splice(0);
    expect(await queue.redeliver()).toBe(1);
    expect(fake.pending.map((envelope) => envelope.body)).toEqual([{ queue: 'q', id: 'lost' }]);
    // A second sweep before delivery duplicates the message; the claim runs the job once.
    expect(await queue.redeliver()).toBe(1);
    await fake.deliverDue(queue);
    expect(ran).toEqual([1]);
    expect(await row('lost')).toBeUndefined();
    // The delayed job is not due yet: nothing for it until it is.
    expect(await queue.redeliver()).toBe(0);
    clock.advance(60_000);
    expect(await queue.redeliver()).toBe(1);
    await fake.deliverDue(queue);
    expect(ran).toEqual([1, 2]);
  });

  it('sends at most 100 messages a call', async () => {
    const { fake, queue } = await setUp();
    await queue.enqueueAll(
      'q',
      Array.from({ length: 250 }, (_, n) => ({ payload: { n }, options: { id: `job-${n}` } })),
    );
    expect(fake.sendCalls).toEqual([100, 100, 50]);
    expect(new Set(fake.pending.map((envelope) => envelope.body.id)).size).toBe(250);
  });

  it('delays a message until its job is due, and a job due past 12 h is delayed again when its message arrives', async () => {
    const { clock, fake, queue } = await setUp();
    const ran: unknown[] = [];
    queue.process('q', 1, async (payload) => void ran.push(payload.n));
    const start = clock.now().getTime();
    await queue.enqueue('q', { n: 1 }, { id: 'soon', runAt: new Date(start + 90_500) });
    await queue.enqueue('q', { n: 2 }, { id: 'in-two-days', runAt: new Date(start + 48 * 3_600_000) });
    await queue.enqueue('q', { n: 3 }, { id: 'now' });
    expect(fake.pending.map((envelope) => [envelope.body.id, envelope.delaySeconds])).toEqual([
      ['soon', 91],
      ['in-two-days', 43_200],
      ['now', undefined],
    ]);

    for (const hours of [12, 24, 36]) {
      clock.set(new Date(start + hours * 3_600_000).toISOString());
      await fake.deliverDue(queue);
      // Whichever message comes first runs the job due first ('now'), as every claim takes the queue's first in line.
      expect(ran).toEqual([3, 1]);
      // Acked, and sent anew for the rest of the wait: re-delays do not use up the consumer's max_retries.
      expect(fake.pending.map((envelope) => [envelope.body.id, envelope.delaySeconds])).toEqual([['in-two-days', Math.min(43_200, (48 - hours) * 3_600)]]);
    }
    clock.set(new Date(start + 48 * 3_600_000).toISOString());
    await fake.deliverDue(queue);
    expect(ran).toEqual([3, 1, 2]);
    expect(fake.pending).toEqual([]);
  });

  it('retries a job that threw after its backoff, telling the handler its attempt, and fails it for good after the last', async () => {
    const { clock, fake, queue, row } = await setUp();
    const runs: Pick<JobRun, 'attempt' | 'lastAttempt'>[] = [];
    queue.process('q', 1, async (_payload, { attempt, lastAttempt }) => {
      runs.push({ attempt, lastAttempt });
      throw new Error(`the database went away (${attempt})`);
    });
    await queue.enqueue('q', {}, { id: 'flaky' });
    await fake.deliverDue(queue);
    clock.advance(2_000);
    await fake.deliverDue(queue);
    clock.advance(4_000);
    await fake.deliverDue(queue);
    expect(runs).toEqual([
      { attempt: 1, lastAttempt: false },
      { attempt: 2, lastAttempt: false },
      { attempt: 3, lastAttempt: true },
    ]);
    expect(fake.outcomes).toEqual([
      { jobId: 'flaky', outcome: 'retry', delaySeconds: 2 },
      { jobId: 'flaky', outcome: 'retry', delaySeconds: 4 },
      { jobId: 'flaky', outcome: 'ack' },
    ]);
    expect(await row('flaky')).toMatchObject({ status: 'failed', attempts: 3, last_error: 'the database went away (3)' });
  });

  it('runs a job once when its message is delivered twice at once, and acks a copy that arrives after it is done', async () => {
    const { clock, fake, queue, row } = await setUp();
    let runs = 0;
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    queue.process('q', 2, async () => {
      runs += 1;
      await gate;
    });
    await queue.enqueue('q', {}, { id: 'twice' });
    const [message] = fake.take();
    if (message === undefined) throw new Error('no message was sent');
    const first = fake.deliver(queue, [message]);
    await fake.deliver(queue, [message]);
    // The copy found the job running: it leaves it be, and comes back once that claim would have run out.
    expect(fake.outcomes).toEqual([{ jobId: 'twice', outcome: 'retry', delaySeconds: CLAIM_MS / 1000 }]);
    release();
    await first;
    expect(await row('twice')).toBeUndefined();
    clock.advance(CLAIM_MS);
    await fake.deliverDue(queue);
    expect(runs).toBe(1);
    expect(fake.outcomes.slice(1)).toEqual([
      { jobId: 'twice', outcome: 'ack' },
      { jobId: 'twice', outcome: 'ack' },
    ]);
  });

  it('runs at most the concurrency of handlers of one batch at a time', async () => {
    const { fake, queue } = await setUp();
    let running = 0;
    let peak = 0;
    queue.process('q', 2, async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    });
    await queue.enqueueAll(
      'q',
      Array.from({ length: 6 }, (_, n) => ({ payload: {}, options: { id: `job-${n}` } })),
    );
    await fake.deliverDue(queue);
    expect(peak).toBe(2);
    expect(fake.outcomes.filter((outcome) => outcome.outcome === 'ack')).toHaveLength(6);
  });

  it('takes back a job its handler handed back without counting the run', async () => {
    const { fake, queue } = await setUp();
    const attempts: number[] = [];
    queue.process('q', 1, async (_payload, run) => {
      attempts.push(run.attempt);
      if (attempts.length === 1) throw new JobHandedBack();
    });
    await queue.enqueue('q', {}, { id: 'handed-back' });
    await fake.deliverDue(queue);
    expect(fake.outcomes).toEqual([{ jobId: 'handed-back', outcome: 'retry', delaySeconds: 0 }]);
    await fake.deliverDue(queue);
    expect(attempts).toEqual([1, 1]);
  });

  it('takes out the jobs whose messages could not be sent, so the enqueue can be tried again', async () => {
    const { fake, queue, row } = await setUp();
    fake.failNextSends(1);
    await expect(queue.enqueue('q', {}, { id: 'unsent' })).rejects.toThrow('the Queue is unavailable');
    expect(await row('unsent')).toBeUndefined();
    await queue.enqueue('q', {}, { id: 'unsent' });
    expect(fake.pending.map((envelope) => envelope.body.id)).toEqual(['unsent']);
  });

  it('once closed, hands every message back without claiming its job', async () => {
    const { fake, queue, row } = await setUp();
    let ran = false;
    queue.process('q', 1, async () => void (ran = true));
    await queue.enqueue('q', {}, { id: 'after-close' });
    await queue.close();
    await fake.deliverDue(queue);
    expect(ran).toBe(false);
    expect(fake.outcomes).toEqual([{ jobId: 'after-close', outcome: 'retry', delaySeconds: 0 }]);
    expect(await row('after-close')).toMatchObject({ status: 'queued', attempts: 0 });
  });
});
