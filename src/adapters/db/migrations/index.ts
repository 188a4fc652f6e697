import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './001-initial.js';
import * as apiKeys from './002-api-keys.js';
import * as batches from './003-batches.js';
import * as imagesR2Key from './004-images-r2-key.js';
import * as jobLeases from './005-job-leases.js';
import { fastReads } from './006-fast-reads.js';
import * as idempotency from './007-idempotency.js';
import * as keyBudgets from './008-key-budgets.js';
import * as charges from './009-charges.js';
import { searchFolding } from './010-search-folding.js';
import * as imageInputs from './011-image-inputs.js';
import * as jobHeaders from './012-job-headers.js';
import * as imageThumbnails from './013-image-thumbnails.js';
import * as galleryVersion from './014-gallery-version.js';
import * as keyCreators from './015-key-creators.js';
import { generations } from './016-generations.js';
import * as batchGenerations from './017-batch-generations.js';
import * as fairQueue from './018-fair-queue.js';
import * as uploadRoles from './019-upload-roles.js';
import type { Database } from '../../../ports/database.js';

/**
 * Migrations are compiled in (not read from disk) so the same list runs on Node and on Workers. Nearly all
 * are portable; those that are not (the search index) are told the dialect.
 */
export const migrationsFor = (dialect: Database['dialect']): Record<string, Migration> => ({
  '001-initial': initial,
  '002-api-keys': apiKeys,
  '003-batches': batches,
  '004-images-r2-key': imagesR2Key,
  '005-job-leases': jobLeases,
  '006-fast-reads': fastReads(dialect),
  '007-idempotency': idempotency,
  '008-key-budgets': keyBudgets,
  '009-charges': charges,
  '010-search-folding': searchFolding(dialect),
  '011-image-inputs': imageInputs,
  '012-job-headers': jobHeaders,
  '013-image-thumbnails': imageThumbnails,
  '014-gallery-version': galleryVersion,
  '015-key-creators': keyCreators,
  '016-generations': generations(dialect),
  '017-batch-generations': batchGenerations,
  '018-fair-queue': fairQueue,
  '019-upload-roles': uploadRoles,
});

export const migrationProvider = (dialect: Database['dialect']): MigrationProvider => ({
  getMigrations: async () => migrationsFor(dialect),
});
