import { sql } from 'kysely';
import type { KyselyDatabase } from '../../../src/adapters/db/kysely-database.js';
import type { Harness } from '../../../src/test-support/harness.js';

const TABLES = ['images', 'collections', 'collection_images', 'templates', 'api_keys', 'batches', 'batch_items', 'webhook_deliveries', 'jobs'] as const;

/** Rows per table and objects in the blob store: what a refused request must leave unchanged. */
export async function countStored(h: Harness): Promise<Record<string, number>> {
  const db = (h.deps.db as KyselyDatabase).kysely;
  const counts: Record<string, number> = { objects: (await h.blobs.keys()).length };
  for (const table of TABLES) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}
