import type { Kysely, Selectable } from 'kysely';
import type { ClaimResult, IdempotencyRecord, IdempotencyRepository } from '../../ports/database.js';
import { toNumber } from './rows.js';
import type { DatabaseSchema, IdempotencyKeysTable } from './schema.js';

/** Shared by SQLite and PostgreSQL: the claim is an insert that does nothing on conflict, atomic on both. */
export function createIdempotencyRepository(db: Kysely<DatabaseSchema>): IdempotencyRepository {
  return {
    async claim({ userId, key, fingerprint, now, expiresAt }) {
      // Twice at most: the second round follows the removal of an expired row that stood in the way.
      for (let round = 0; round < 2; round += 1) {
        const inserted = await db
          .insertInto('idempotency_keys')
          .values({
            user_id: userId,
            key,
            fingerprint,
            state: 'running',
            response_status: null,
            response_headers: null,
            response_body: null,
            created_at: now,
            expires_at: expiresAt,
          })
          .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
          .executeTakeFirst();
        if (toNumber(inserted.numInsertedOrUpdatedRows) > 0) return { kind: 'claimed' };
        const row = await db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
        // Gone between the insert and the read (released or expired and removed by another request): try again.
        if (row === undefined) continue;
        if (row.expires_at > now) return { kind: 'existing', record: toRecord(row) } satisfies ClaimResult;
        // Expired: remove exactly that row (not one another request has just put in its place), then claim.
        await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).where('expires_at', '=', row.expires_at).execute();
      }
      const row = await db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
      if (row !== undefined) return { kind: 'existing', record: toRecord(row) };
      throw new Error(`idempotency key of ${userId} could not be claimed`);
    },

    async renew(userId, key, expiresAt) {
      await db
        .updateTable('idempotency_keys')
        .set({ expires_at: expiresAt })
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .where('state', '=', 'running')
        .execute();
    },

    async complete(userId, key, response, expiresAt) {
      await db
        .updateTable('idempotency_keys')
        .set({
          state: 'done',
          response_status: response.status,
          response_headers: JSON.stringify(response.headers),
          response_body: response.body,
          expires_at: expiresAt,
        })
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .execute();
    },

    async release(userId, key) {
      await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).where('state', '=', 'running').execute();
    },
  };
}

function toRecord(row: Selectable<IdempotencyKeysTable>): IdempotencyRecord {
  const done = row.state === 'done' && row.response_status !== null;
  return {
    userId: row.user_id,
    key: row.key,
    fingerprint: row.fingerprint,
    state: done ? 'done' : 'running',
    response: done
      ? { status: toNumber(row.response_status), headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>, body: row.response_body ?? '' }
      : undefined,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
