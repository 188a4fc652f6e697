import type { Config } from '../../../../config/config.js';
import { describeDatabase, openDatabase } from '../../database.js';

interface Io {
  out(text: string): void;
}

/** `imagegate migrate`: applies what is pending and says what it applied, so a first run is not a silent one. */
export async function migrateCommand(config: Config, io: Io): Promise<number> {
  let applied: readonly string[] = [];
  const db = await openDatabase(config, undefined, (names) => (applied = names));
  await db.close();
  const where = describeDatabase(config);
  if (applied.length === 0) io.out(`imagegate: ${where} is up to date; no migrations to apply`);
  else io.out(`imagegate: ${where}: applied ${applied.length} migration${applied.length === 1 ? '' : 's'} (${applied.join(', ')}); it is up to date`);
  return 0;
}
