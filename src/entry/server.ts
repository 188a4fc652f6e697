import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from '../app.js';
import type { Config } from '../config.js';
import { buildDeps, createLogger } from '../deps.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config);
  const deps = await buildDeps(config, logger);

  let adminApiKey = config.adminApiKey;
  if (config.authMode === 'api_key' && adminApiKey === undefined) {
    // Until stored API keys exist, a start without ADMIN_API_KEY gets a key for this run only.
    adminApiKey = `igk_temp_${randomBytes(24).toString('base64url')}`;
    logger.warn({ apiKey: adminApiKey }, 'ADMIN_API_KEY is not set; use this API key for this run (set ADMIN_API_KEY to keep one)');
  }
  const app = createApp({ deps, config: { ...config, adminApiKey }, serveFiles: true });

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
        await deps.db.close();
        logger.info('imagegate stopped');
      })();
      return closing;
    },
  };
}
