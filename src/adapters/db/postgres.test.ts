import pg from 'pg';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestSchema } from '../../test-support/test-schema.js';
import { TEST_DATABASE_URL, skipWithout } from '../../test-support/services.js';
import type { KyselyDatabase } from './kysely-database.js';
import { migrationProvider } from './migrations/index.js';
import { createPostgresDatabase, migrationLockKey } from './postgres.js';

const skip = await skipWithout('postgres');

describe.skipIf(skip)('PostgreSQL database', () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  const opened: KyselyDatabase[] = [];
  const open = (poolSize = 2) => {
    const db = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize, schema: schema.name });
    opened.push(db);
    return db;
  };
  beforeEach(async () => {
    schema = await createTestSchema(TEST_DATABASE_URL);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
    await schema.drop();
  });

  const appliedMigrations = async (db: KyselyDatabase) =>
    (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely)).rows.map((row) => row.name);

  it('migrates a fresh schema once when four processes start together', async () => {
    const processes = [open(), open(), open(), open()];
    await Promise.all(processes.map((db) => db.migrate()));
    const [first] = processes;
    if (first === undefined) throw new Error('no process');
    expect(await appliedMigrations(first)).toEqual(Object.keys(await migrationProvider('postgres').getMigrations()).sort());
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = ${schema.name}`.execute(
      first.kysely,
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['images', 'jobs', 'batches', 'api_keys']));
    await first.images.insert({
      id: 'img_1',
      user_id: 'alice',
      prompt: 'p',
      model: 'm',
      r2_key: 'k',
      width: 1,
      height: 1,
      cost: 0,
      is_deleted: false,
      created_at: '2026-11-01T10:00:00.000Z',
      deleted_at: null,
      template_id: null,
      metadata: null,
      parameters: {},
    });
  });

  it('migrates its own schema when another schema of the database already has migration tables', async () => {
    const other = await createTestSchema(TEST_DATABASE_URL);
    try {
      const elsewhere = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 1, schema: other.name });
      await elsewhere.migrate();
      await elsewhere.close();
      const db = open();
      await db.migrate();
      expect(await appliedMigrations(db)).toEqual(Object.keys(await migrationProvider('postgres').getMigrations()).sort());
    } finally {
      await other.drop();
    }
  });

  it('creates its schema on first migration when the schema does not exist yet, once when processes start together', async () => {
    const name = `${schema.name}_new`;
    const db = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 1, schema: name });
    const others = [1, 2, 3].map(() => createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 1, schema: name }));
    try {
      await Promise.all([db, ...others].map((each) => each.migrate()));
      expect(await appliedMigrations(db)).toEqual(Object.keys(await migrationProvider('postgres').getMigrations()).sort());
      const where = await sql<{
        schema: string;
      }>`select table_schema as schema from information_schema.tables where table_name = 'images' and table_schema = ${name}`.execute(db.kysely);
      expect(where.rows).toEqual([{ schema: name }]);
    } finally {
      await Promise.all([db, ...others].map((each) => each.close()));
      await sql`drop schema if exists ${sql.id(name)} cascade`.execute(open().kysely);
    }
  });

  it('migrates while other schemas of the database are being dropped (tests cleaning up, tenants removed)', async () => {
    // Kysely's own introspector read every schema and failed with "schema … does not exist" on one dropped meanwhile.
    let churning = true;
    const churn = (async () => {
      while (churning) {
        const other = await createTestSchema(TEST_DATABASE_URL);
        const elsewhere = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 1, schema: other.name });
        await sql`create table many_columns (${sql.raw(Array.from({ length: 40 }, (_, i) => `c${i} serial`).join(', '))})`.execute(elsewhere.kysely);
        await elsewhere.close();
        await other.drop();
      }
    })();
    try {
      for (let round = 0; round < 4; round += 1) {
        const target = await createTestSchema(TEST_DATABASE_URL);
        const db = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 1, schema: target.name });
        try {
          await db.migrate();
          const tables = (await db.kysely.introspection.getTables()).map((table) => table.schema);
          expect(new Set(tables)).toEqual(new Set([target.name]));
        } finally {
          await db.close();
          await target.drop();
        }
      }
    } finally {
      churning = false;
      await churn;
    }
  }, 60_000);

  it('waits for the migration lock held by another process before migrating', async () => {
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [migrationLockKey(schema.name)]);
      const db = open();
      let settled = false;
      const migrating = db.migrate().finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      const table = await holder.query(`select to_regclass('${schema.name}.kysely_migration') as found`);
      expect(table.rows[0]).toEqual({ found: null });
      await holder.query('select pg_advisory_unlock($1)', [migrationLockKey(schema.name)]);
      await migrating;
      expect((await appliedMigrations(db)).length).toBeGreaterThan(0);
    } finally {
      await holder.end();
    }
  });

  it('never opens more connections than the pool size', async () => {
    const db = open(2);
    const pids = await Promise.all(
      Array.from({ length: 6 }, async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(db.kysely)).rows[0]?.pid),
    );
    expect(new Set(pids).size).toBeLessThanOrEqual(2);
    expect(pids.every((pid) => typeof pid === 'number')).toBe(true);
  });

  it('refuses a schema name it would have to quote', () => {
    expect(() => createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 1, schema: 'x; drop table images' })).toThrow(/schema name/);
  });

  it('refuses a pool of no connections', () => {
    expect(() => createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 0 })).toThrow(/pool size/);
  });
});
