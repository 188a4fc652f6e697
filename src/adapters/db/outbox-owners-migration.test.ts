import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../test-support/services.js';
import { migrationTestOpeners, type OpenedForMigration } from '../../test-support/migration-openers.js';
import { migrationProvider } from './migrations/index.js';
import { createKyselyUnitOfWork } from './unit-of-work.js';
import { createWebhookOutboxRepository } from './webhook-outbox-repository.js';

const skipPostgres = await skipWithout('postgres');

const openers = migrationTestOpeners(skipPostgres);

const AT = '2026-11-01T00:00:00.000Z';

describe.each(openers)('migration 016 on %s', (dialect, skip, open) => {
  let opened: OpenedForMigration | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  it.skipIf(skip)("keeps a batch's deliveries and their attempts, and lets a delivery belong to a generation instead, never to both or neither", async () => {
    opened = await open();
    const { db } = opened;
    const migrator = new Migrator({ db, provider: migrationProvider(dialect), migrationTableSchema: opened.migrationTableSchema });
    expect((await migrator.migrateTo('015-key-creators')).error).toBeUndefined();
    await sql`insert into batches (id, user_id, name, model, parameters, status, total_prompts, created_at, updated_at) values ('batch_1', 'alice', 'b', 'local/procedural', '{}', 'completed', 1, ${AT}, ${AT})`.execute(
      db,
    );
    await sql`insert into webhook_deliveries (id, batch_id, event, url, payload, status, attempts, created_at, updated_at) values ('msg_batch_1', 'batch_1', 'batch.completed', 'https://example.com/h', '{}', 'delivered', 1, ${AT}, ${AT})`.execute(
      db,
    );
    await sql`insert into webhook_attempts (delivery_id, attempt, at, status_code, duration_ms) values ('msg_batch_1', 1, ${AT}, 200, 5)`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const outbox = createWebhookOutboxRepository(db, createKyselyUnitOfWork(db));
    expect(await outbox.deliveries('batch_1')).toEqual([
      {
        id: 'msg_batch_1',
        batch_id: 'batch_1',
        generation_id: null,
        event: 'batch.completed',
        url: 'https://example.com/h',
        payload: '{}',
        status: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        created_at: AT,
        updated_at: AT,
      },
    ]);
    expect(await outbox.attempts('msg_batch_1')).toEqual([{ delivery_id: 'msg_batch_1', attempt: 1, at: AT, status_code: 200, error: null, duration_ms: 5 }]);

    await sql`insert into generations (id, user_id, status, model, prompt, request, image_id, created_at) values ('gen_1', 'alice', 'failed', 'local/procedural', 'a fox', '{}', 'img_1', ${AT})`.execute(
      db,
    );
    const insert = (id: string, batchId: string | null, generationId: string | null) =>
      sql`insert into webhook_deliveries (id, batch_id, generation_id, event, url, payload, status, attempts, created_at, updated_at) values (${id}, ${batchId}, ${generationId}, 'generation.failed', 'https://example.com/h', '{}', 'pending', 0, ${AT}, ${AT})`.execute(
        db,
      );
    await insert('whd_gen_1_failed', null, 'gen_1');
    expect((await outbox.generationDeliveries('gen_1')).map((row) => row.id)).toEqual(['whd_gen_1_failed']);
    await expect(insert('whd_both', 'batch_1', 'gen_1')).rejects.toThrow();
    await expect(insert('whd_neither', null, null)).rejects.toThrow();
    // The attempts still reference the outbox after the rebuild: an attempt of no delivery is refused.
    await expect(sql`insert into webhook_attempts (delivery_id, attempt, at, duration_ms) values ('msg_nope', 1, ${AT}, 5)`.execute(db)).rejects.toThrow();
  });
});
