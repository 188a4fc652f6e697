import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createApp } from '../app.js';
import type { Config } from '../config.js';
import { buildDeps, createLogger } from '../deps.js';
import { startBatchWorkers } from '../domain/batches/batch-workers.js';
import { bootstrapAdminKey } from '../domain/keys/bootstrap-admin-key.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config);
  const deps = await buildDeps(config, logger);

  if (config.authMode === 'api_key') {
    const bootstrap = await bootstrapAdminKey(deps, config.adminApiKey);
    if (bootstrap.kind === 'generated') {
      // Printed once, on the first start with no key at all: the only time the secret exists in the clear.
      logger.warn(
        { apiKey: bootstrap.secret, keyId: bootstrap.keyId },
        'created the first admin API key; store it now, it is not shown again. ' +
          'Create more with: npx imagegate keys create --name <name> --permissions generate,read (or POST /api/keys)',
      );
    }
  }
  const app = createApp({ deps, config, serveFiles: true, clientAddress: (c) => getConnInfo(c).remote.address ?? 'unknown' });
  await startBatchWorkers(deps);

  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(started));
  });
  const port = (server.address() as AddressInfo).port;
  logger.info(
    { url: `http://${config.host}:${port}`, authMode: config.authMode, dataDir: config.dataDir, publicBaseUrl: config.publicBaseUrl },
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
        await deps.queue.close();
        await deps.db.close();
        logger.info('imagegate stopped');
      })();
      return closing;
    },
  };
}
