import type { Kysely } from 'kysely';

/**
 * Job headers (JSON text, null for none): metadata carried beside a job's payload, such as the W3C trace context of
 * the request that queued it. A column of its own so the payload a worker checks stays exactly its kind's shape.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('headers', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('headers').execute();
}
