import { applyD1Migrations, type D1Migration } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { sql } from 'kysely';
import { createD1Database } from '../../src/adapters/db/d1.js';
import type { D1Binding } from '../../src/adapters/db/d1-unit-of-work.js';
import { describeDatabaseContract } from '../contracts/database.contract.js';

/**
 * The Database contract, the same suite SQLite and PostgreSQL pass, on D1 as workerd runs it locally, with the
 * schema of migrations/d1. The file's tests share one D1 database, so each starts by emptying every table.
 */
describeDatabaseContract('D1, in workerd', async () => {
  const db = createD1Database(env.DB as D1Binding, {
    migrate: async () => {
      await applyD1Migrations(env.DB, env.D1_MIGRATIONS as D1Migration[]);
      const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not like 'd1_%' and name not like 'images_search%'`.execute(db.kysely);
      // The prompt index follows the images through its triggers. Children before parents (D1 enforces foreign keys): whatever a row still references is emptied next pass.
      let left = tables.rows.map((row) => row.name);
      for (let pass = 0; left.length > 0 && pass < tables.rows.length; pass += 1) {
        const failed: string[] = [];
        for (const name of left) await sql`delete from ${sql.id(name)}`.execute(db.kysely).catch(() => failed.push(name));
        left = failed;
      }
      if (left.length > 0) throw new Error(`could not empty ${left.join(', ')}`);
      return [];
    },
  });
  return db;
});
