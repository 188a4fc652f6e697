import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../adapters/db/schema.js';

/**
 * Every row of every table of a migrated SQLite or D1 database gone, the schema kept. The prompt index follows the
 * images through its triggers. Children before parents (D1 enforces foreign keys): whatever a row still references
 * is emptied next pass.
 */
export async function emptyTables(kysely: Kysely<DatabaseSchema>): Promise<void> {
  const tables = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not like 'd1_%' and name not like 'images_search%'`.execute(
    kysely,
  );
  let left = tables.rows.map((row) => row.name);
  for (let pass = 0; left.length > 0 && pass < tables.rows.length; pass += 1) {
    const failed: string[] = [];
    for (const name of left) await sql`delete from ${sql.id(name)}`.execute(kysely).catch(() => failed.push(name));
    left = failed;
  }
  if (left.length > 0) throw new Error(`could not empty ${left.join(', ')}`);
}
