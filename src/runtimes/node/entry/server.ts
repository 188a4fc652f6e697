import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createNodeApp } from '../app.js';
import type { Config } from '../../../config/config.js';
import { StartupError, errorCode } from '../../../adapters/process/startup-error.js';
import { describeDatabase } from '../database.js';
import { buildDeps, type Runtime } from '../deps.js';
import { createLogger } from '../logger.js';
import { claimDataDir } from '../storage.js';
import { checkDependencies } from './startup-checks.js';
import { startBatchWorkers, type BatchWorkers } from '../../../domain/batches/batch-workers.js';
import { batchWorkerOptions, recoverOptions } from './queue-worker.js';
import { startup } from '../../../domain/startup.js';
import { createLimitedServer } from './server-limits.js';
import { warmHttpClient } from '../../../adapters/process/warm-http-client.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, hands back or finishes running jobs, closes connections. */
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Run the batch and webhook workers in this process too (`serve`); off for `serve --no-workers`. */
  workers: boolean;
}

/**
 * Order matters: the folder is claimed and the port bound before anything is created, so a busy port or
 * a second server fails without side effects (a first admin key printed by a start that then dies would
 * be lost, and the next start would print none). Requests that arrive while start-up finishes wait.
 */
export async function startServer(config: Config, options: ServeOptions = { workers: true }): Promise<RunningServer> {
  const logger = createLogger(config, { buffered: true });
  // The embedded database allows one server per DATA_DIR; a database server allows as many as you run.
  const lock = config.database.kind === 'sqlite' ? claimDataDir(config) : undefined;
  let runtime: Runtime | undefined;
  let server: ServerType | undefined;
  let workers: BatchWorkers | undefined;
  try {
    runtime = await buildDeps(config, { logger });
    const { deps } = runtime;
    await checkDependencies(deps.readiness, config);
    const app = createNodeApp({
      deps,
      config,
      serveFiles: config.storage.driver === 'local',
      clientAddress: (c) => getConnInfo(c).remote.address ?? 'unknown',
      webAppDir: config.webAppDir,
      stagingDir: path.join(config.dataDir, 'tmp'),
    });
    let markReady = () => {};
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    server = createLimitedServer({
      hostname: config.host,
      fetch: async (request, env) => {
        await ready;
        return app.fetch(request, env);
      },
      limits: { maxConnections: config.maxConnections },
      logger,
    });
    await listen(server, config);

    await Promise.all([
      startup(deps, {
        adminKey: config.authMode === 'api_key' ? { secret: config.adminApiKey, moreKeys: 'cli' } : undefined,
        recover: options.workers ? { ...recoverOptions(config), soleWorker: lock !== undefined } : undefined,
        continuing: 'serving',
      }),
      warmHttpClient(logger),
    ]);
    if (options.workers) workers = await startBatchWorkers(deps, batchWorkerOptions(config));
    markReady();
    return running(config, { runtime, server, workers, release: () => lock?.release() });
  } catch (error) {
    server?.close();
    await runtime?.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
}

function running(config: Config, parts: { runtime: Runtime; server: ServerType; workers: BatchWorkers | undefined; release: () => void }): RunningServer {
  const { runtime, server, release } = parts;
  const { logger } = runtime.deps;
  const port = (server.address() as AddressInfo).port;
  logger.info(
    {
      url: `http://${config.host}:${port}`,
      authMode: config.authMode,
      database: describeDatabase(config),
      storage: config.storage.driver,
      queue: config.redis === undefined ? 'database' : 'redis',
      workers: parts.workers !== undefined,
      // Where images will be, whatever the storage: PUBLIC_BASE_URL with local files, the bucket's URL with S3.
      imageUrls: `${runtime.deps.blobs.publicUrl('generated/')}<id>.png`,
    },
    'imagegate listening',
  );
  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    port,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
        await parts.workers?.stop();
        await runtime.close();
        release();
        logger.info('imagegate stopped');
      })();
      return closing;
    },
  };
}

/** Binds the port; the usual failures become one line saying what to do. */
async function listen(server: ServerType, config: Pick<Config, 'port' | 'host'>): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(listenError(error, config));
    server.once('error', onError);
    server.listen(config.port, config.host, () => {
      server.removeListener('error', onError);
      resolve();
    });
  });
}

function listenError(error: Error, { port, host }: Pick<Config, 'port' | 'host'>): Error {
  switch (errorCode(error)) {
    case 'EADDRINUSE':
      return new StartupError(`port ${port} is already in use on ${host}; stop the other process or set PORT`);
    case 'EACCES':
      return new StartupError(`port ${port} on ${host} needs privileges this user does not have; set PORT to 1024 or above`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`HOST ${host} is not an address of this machine; set HOST (127.0.0.1, or 0.0.0.0 for every interface)`);
    default:
      return error;
  }
}
