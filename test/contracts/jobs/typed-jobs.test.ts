import { describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../../src/adapters/db/sqlite.js';
import { createDatabaseQueue } from '../../../src/adapters/queue/database-queue.js';
import { JOB_KINDS, enqueueJob, jobId, processJobs } from '../../../src/domain/jobs.js';
import type { Logger } from '../../../src/ports/logger.js';
import { createTestClock } from '../../../src/test-support/harness.js';

function recordingLogger(): Logger & { errors: unknown[] } {
  const errors: unknown[] = [];
  const ignore = () => undefined;
  return { errors, error: (fields: unknown) => errors.push(fields), warn: ignore, info: ignore, debug: ignore };
}

async function queueFixture() {
  const db = createSqliteDatabase(':memory:');
  await db.migrate();
  const logger = recordingLogger();
  const queue = createDatabaseQueue({ db: db.kysely, dialect: db.dialect, clock: createTestClock(), logger, pollMs: 10 });
  return { db, queue, logger, close: async () => (await queue.close(), await db.close()) };
}

describe('typed jobs', () => {
  it('builds job ids without a colon, which BullMQ forbids', () => {
    expect(jobId('batch-item', 'batch_01abc', 3)).toBe('batch-item-batch_01abc-3');
    expect(jobId('webhook', 'msg_01abc', 1)).not.toContain(':');
  });

  it('refuses to enqueue a payload that does not match its kind', async () => {
    const f = await queueFixture();
    await expect(enqueueJob(f.queue, 'batch-item', { batchId: 'b', idx: -1 }, { id: 'x' })).rejects.toThrow();
    await f.close();
  });

  it('hands a handler only payloads that match its kind, logging and dropping the others', async () => {
    const f = await queueFixture();
    const seen: unknown[] = [];
    processJobs(f.queue, 'batch-item', { concurrency: 1, logger: f.logger }, async (payload) => {
      seen.push(payload);
    });
    await f.queue.enqueue('batch-item', { batchId: 'batch_1' }, { id: 'written-by-hand' });
    await enqueueJob(f.queue, 'batch-item', { batchId: 'batch_1', idx: 0 }, { id: jobId('batch-item', 'batch_1', 0) });
    await f.queue.drain();
    expect(seen).toEqual([{ batchId: 'batch_1', idx: 0 }]);
    expect(f.logger.errors).toEqual([expect.objectContaining({ kind: 'batch-item', payload: { batchId: 'batch_1' } })]);
    await f.close();
  });

  it('knows every kind the workers process', () => {
    expect(Object.keys(JOB_KINDS).sort()).toEqual(['batch-item', 'generation', 'thumbnails', 'webhook']);
  });
});
