import type { Kysely, Selectable } from 'kysely';
import type { WebhookDeliveryRow, WebhookOutboxRepository } from '../../ports/database.js';
import type { UnitOfWork } from '../../ports/db/unit-of-work.js';
import { writeOf } from './unit-of-work.js';
import type { DatabaseSchema, WebhookDeliveriesTable } from './schema.js';

export const toDelivery = (row: Selectable<WebhookDeliveriesTable>): WebhookDeliveryRow => ({
  ...row,
  status: row.status as WebhookDeliveryRow['status'],
  attempts: Number(row.attempts),
});

export function createWebhookOutboxRepository(db: Kysely<DatabaseSchema>, unit: UnitOfWork): WebhookOutboxRepository {
  return {
    async deliveries(batchId) {
      return (await db.selectFrom('webhook_deliveries').selectAll().where('batch_id', '=', batchId).orderBy('created_at').execute()).map(toDelivery);
    },
    async generationDeliveries(generationId) {
      return (
        await db.selectFrom('webhook_deliveries').selectAll().where('generation_id', '=', generationId).orderBy('created_at').orderBy('id').execute()
      ).map(toDelivery);
    },
    async findDelivery(id) {
      const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toDelivery(row);
    },
    async pendingDeliveries() {
      return (await db.selectFrom('webhook_deliveries').selectAll().where('status', '=', 'pending').execute()).map(toDelivery);
    },
    async attempts(deliveryId) {
      const rows = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
      return rows.map((row) => ({
        ...row,
        attempt: Number(row.attempt),
        duration_ms: Number(row.duration_ms),
        status_code: row.status_code === null ? null : Number(row.status_code),
      }));
    },
    async recordAttempt(attempt, next) {
      await unit.commit([
        // Recorded once per attempt number: a delivery job run again after a crash adds nothing.
        writeOf(
          'webhookOutbox.recordAttempt',
          db
            .insertInto('webhook_attempts')
            .values(attempt)
            .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing()),
        ),
        writeOf(
          'webhookOutbox.recordAttempt: the delivery',
          db
            .updateTable('webhook_deliveries')
            .set({ status: next.status, next_attempt_at: next.next_attempt_at, attempts: attempt.attempt, updated_at: attempt.at })
            .where('id', '=', attempt.delivery_id),
        ),
      ]);
    },
  };
}
