import type { Kysely } from 'kysely';

/**
 * The keys that created each key, root first, as `/key_a/key_b/` (null for a key no key created: the operator's,
 * the CLI's, an admin's for another user). A budgeted key's budget covers every key it creates, directly or not:
 * a reservation checks each creator's budget against the spend of that creator's whole tree, found by this path.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('creator_path', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('creator_path').execute();
}
