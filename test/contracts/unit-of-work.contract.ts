import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KyselyDatabase } from '../../src/adapters/db/kysely-database.js';
import { writeOf } from '../../src/adapters/db/unit-of-work.js';

/**
 * The unit of work every database adapter gives (Database.commit): all of a unit's writes or none, in order, each
 * guarded in its own statement. The same suite is meant for D1's batch() once that adapter exists.
 */
export function describeUnitOfWorkContract(name: string, open: () => Promise<KyselyDatabase>): void {
  describe(`UnitOfWork contract: ${name}`, () => {
    let db: KyselyDatabase;
    beforeEach(async () => {
      db = await open();
      await db.migrate();
    });
    afterEach(async () => db.close());

    const setting = (key: string, value: string) => writeOf(`settings.put ${key}`, db.kysely.insertInto('settings').values({ key, value }));
    const read = async (key: string) => (await db.kysely.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

    it('writes every statement in order and says how many rows each changed', async () => {
      const outcomes = await db.commit([
        setting('a', '1'),
        writeOf('settings.bump a', db.kysely.updateTable('settings').set({ value: '2' }).where('key', '=', 'a')),
        writeOf('settings.bump missing', db.kysely.updateTable('settings').set({ value: '9' }).where('key', '=', 'missing')),
      ]);
      expect(outcomes).toEqual([{ changed: 1 }, { changed: 1 }, { changed: 0 }]);
      expect(await read('a')).toBe('2');
    });

    it('writes nothing when one statement fails: the ones before it are undone', async () => {
      await db.commit([setting('taken', 'first')]);
      await expect(db.commit([setting('new', 'x'), setting('taken', 'again')])).rejects.toThrow();
      expect(await read('new')).toBeUndefined();
      expect(await read('taken')).toBe('first');
    });

    it('lets a later statement see what an earlier one wrote, so guards can read the unit’s own state', async () => {
      const outcomes = await db.commit([
        setting('gate', 'open'),
        writeOf(
          'settings.put if gate',
          db.kysely
            .insertInto('settings')
            .columns(['key', 'value'])
            .expression((eb) =>
              eb
                .selectFrom('settings')
                .select([eb.val('guarded').as('key'), eb.val('yes').as('value')])
                .where('key', '=', 'gate')
                .where('value', '=', 'open'),
            ),
        ),
      ]);
      expect(outcomes).toEqual([{ changed: 1 }, { changed: 1 }]);
      expect(await read('guarded')).toBe('yes');
    });

    it('commits an empty unit as nothing, and refuses a write it did not make', async () => {
      await expect(db.commit([])).resolves.toEqual([]);
      await expect(db.commit([{ label: 'hand-made' }])).rejects.toThrow('hand-made was not made by a repository of this database');
    });
  });
}
