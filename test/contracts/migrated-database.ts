import { afterEach, beforeEach } from 'vitest';
import type { Database } from '../../src/ports/database.js';

/** Before each test a freshly opened and migrated database, handed to `use`; closed after it. */
export function eachMigratedDatabase(open: () => Promise<Database>, use: (db: Database) => void): void {
  let db: Database | undefined;
  beforeEach(async () => {
    db = await open();
    await db.migrate();
    use(db);
  });
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });
}
