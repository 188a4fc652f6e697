/**
 * A worker process for the kill -9 test: takes jobs of one queue, prints a line when it starts one, and
 * never finishes it, so the test can kill the process mid-job.
 */
import { pino } from 'pino';
import { createBullmqQueue } from '../../../src/adapters/queue/bullmq-queue.js';

const { REDIS_URL, REDIS_PREFIX, QUEUE_NAME } = process.env;
if (REDIS_URL === undefined || REDIS_PREFIX === undefined || QUEUE_NAME === undefined) throw new Error('REDIS_URL, REDIS_PREFIX and QUEUE_NAME are required');

const queue = createBullmqQueue({
  connection: REDIS_URL,
  prefix: REDIS_PREFIX,
  logger: pino({ level: 'silent' }),
  lockDurationMs: 1000,
  stalledIntervalMs: 250,
});
queue.process(QUEUE_NAME, 1, async (payload) => {
  process.stdout.write(`${JSON.stringify({ started: payload })}\n`);
  await new Promise(() => undefined);
});
process.stdout.write('worker ready\n');
