import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../test-support/services.js';
import { migrationTestOpeners, type OpenedForMigration } from '../../test-support/migration-openers.js';
import { createGenerationRepository } from './generations-repository.js';
import { migrationProvider } from './migrations/index.js';
import { createKyselyUnitOfWork } from './unit-of-work.js';

const skipPostgres = await skipWithout('postgres');

const AT = '2026-11-01T00:00:00.000Z';

describe.each(migrationTestOpeners(skipPostgres))('migration 018 on %s', (dialect, skip, open) => {
  let opened: OpenedForMigration | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  it.skipIf(skip)('ranks the generations and jobs already queued first, first in first out, and goes back down as it came', async () => {
    opened = await open();
    const { db } = opened;
    const migrator = new Migrator({ db, provider: migrationProvider(dialect), migrationTableSchema: opened.migrationTableSchema });
    expect((await migrator.migrateTo('017-batch-generations')).error).toBeUndefined();
    await sql`insert into generations (id, user_id, key_id, status, model, prompt, request, image_id, created_at) values ('gen_old', 'alice', 'key_a', 'queued', 'local/procedural', 'a fox', '{}', 'img_old', ${AT})`.execute(
      db,
    );
    await sql`insert into jobs (id, queue, payload, status, attempts, run_at, created_at, updated_at) values ('generation-gen_old', 'generation', '{}', 'queued', 0, ${AT}, ${AT}, ${AT})`.execute(
      db,
    );
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    expect(await db.selectFrom('jobs').select(['id', 'priority']).execute()).toEqual([{ id: 'generation-gen_old', priority: 0 }]);
    const generations = createGenerationRepository(db, dialect, createKyselyUnitOfWork(db));
    const old = await generations.findAny('gen_old');
    expect(old).toMatchObject({ queue_rank: 0 });
    // Its key's next comes after it; another key's lands beside it, behind it as the younger.
    const row = {
      user_id: 'alice',
      status: 'queued' as const,
      model: 'local/procedural',
      prompt: 'a fox',
      request: {},
      error: null,
      progress: null,
      created_at: '2026-11-01T00:00:01.000Z',
      started_at: null,
      finished_at: null,
      cancel_requested_at: null,
      webhook_url: null,
      webhook_events: null,
      deadline_at: null,
      batch_id: null,
      batch_idx: null,
    };
    expect((await generations.insert({ ...row, id: 'gen_a', key_id: 'key_a', image_id: 'img_a' })).queue_rank).toBe(1);
    const other = await generations.insert({ ...row, id: 'gen_b', key_id: 'key_b', image_id: 'img_b' });
    expect(other.queue_rank).toBe(0);
    expect(await generations.queuedBefore(other)).toBe(1);

    expect((await migrator.migrateTo('017-batch-generations')).error).toBeUndefined();
    const columns = await sql<{ id: string }>`select * from generations where id = 'gen_old'`.execute(db);
    expect(Object.keys(columns.rows[0] ?? {})).not.toContain('queue_rank');
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
