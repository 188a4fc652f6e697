import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './001-initial.js';
import * as apiKeys from './002-api-keys.js';
import * as batches from './003-batches.js';
import * as imagesR2Key from './004-images-r2-key.js';
import * as jobLeases from './005-job-leases.js';

/** Migrations are compiled in (not read from disk) so the same list runs on Node and on Workers. */
const migrations: Record<string, Migration> = {
  '001-initial': initial,
  '002-api-keys': apiKeys,
  '003-batches': batches,
  '004-images-r2-key': imagesR2Key,
  '005-job-leases': jobLeases,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
