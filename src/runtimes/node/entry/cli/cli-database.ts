import fs from 'node:fs';
import { pino } from 'pino';
import { createMemoryBlobStore } from '../../../../adapters/blob/memory-blob-store.js';
import type { Config } from '../../../../config/config.js';
import { describeDatabase } from '../../database.js';
import { buildDeps, type Runtime } from '../../deps.js';
import type { CliIo } from './cli-io.js';

export interface CliRuntime extends Runtime {
  /** No SQLite file existed: this command just made an empty database, most likely not the server's. */
  createdEmpty: boolean;
}

/**
 * The CLI's dependencies, built like the server's (so a revocation reaches every process the same way),
 * with a silent logger and images kept in memory. Says on stderr which database it uses: run from the
 * wrong folder, the CLI would otherwise work on a fresh `./data` while the server uses another.
 */
export async function openCliRuntime(config: Config, io: CliIo, options: { storage?: 'memory' | 'configured' } = {}): Promise<CliRuntime> {
  const existed = config.database.kind === 'postgres' || config.database.file === ':memory:' || fs.existsSync(config.database.file);
  io.err(`imagegate: using database ${describeDatabase(config)}`);
  const blobs = options.storage === 'configured' ? undefined : createMemoryBlobStore();
  const runtime = await buildDeps(config, { logger: pino({ level: 'silent' }), blobs });
  return { ...runtime, createdEmpty: !existed };
}
