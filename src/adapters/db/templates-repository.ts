import type { Kysely } from 'kysely';
import type { TemplateRepository } from '../../ports/database.js';
import { fromTemplateRow, toNumber, toTemplateRow } from './rows.js';
import type { DatabaseSchema } from './schema.js';

export const SYSTEM_USER = 'system';

export function createTemplateRepository(db: Kysely<DatabaseSchema>): TemplateRepository {
  const visible = (userId: string) => db.selectFrom('templates').where('user_id', 'in', [userId, SYSTEM_USER]);

  return {
    async insert(row) {
      await db.insertInto('templates').values(fromTemplateRow(row)).execute();
    },
    async seed(rows) {
      for (const row of rows) {
        const values = fromTemplateRow(row);
        await db
          .insertInto('templates')
          .values(values)
          .onConflict((oc) =>
            oc.column('id').doUpdateSet({
              name: values.name,
              model: values.model,
              default_prompt: values.default_prompt,
              parameters: values.parameters,
              updated_at: values.updated_at,
            }),
          )
          .execute();
      }
    },
    async findVisible(userId, id) {
      const row = await visible(userId).selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toTemplateRow(row);
    },
    async listVisible(userId, page) {
      const [rows, count] = await Promise.all([
        visible(userId).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
        visible(userId)
          .select((eb) => eb.fn.countAll().as('total'))
          .executeTakeFirst(),
      ]);
      return { items: rows.map(toTemplateRow), total: toNumber(count?.total) };
    },
    async update(row) {
      const { id, user_id: userId, created_at: _created, ...changes } = fromTemplateRow(row);
      await db.updateTable('templates').set(changes).where('id', '=', id).where('user_id', '=', userId).execute();
    },
    async delete(userId, id) {
      const result = await db.deleteFrom('templates').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return toNumber(result.numDeletedRows) > 0;
    },
  };
}
