import fs from 'node:fs';
import type { KyselyDatabase } from '../../adapters/db/kysely-database.js';
import type { Config } from '../../config.js';
import { databaseFile, openDatabase } from '../../deps.js';
import type { CliIo } from './keys.js';

export interface CliDatabase {
  db: KyselyDatabase;
  file: string;
  /** No file existed: this command just made an empty database, most likely not the server's. */
  createdEmpty: boolean;
}

/**
 * Opens the database of DATA_DIR and says which one on stderr: run from the wrong folder, the CLI
 * would otherwise work on a fresh `./data` while the server uses another, and nothing would tell.
 */
export async function openCliDatabase(config: Pick<Config, 'dataDir'>, io: CliIo): Promise<CliDatabase> {
  const file = databaseFile(config);
  const existed = fs.existsSync(file);
  io.err(`imagegate: using database ${file}`);
  const db = await openDatabase(config);
  return { db, file, createdEmpty: !existed };
}
