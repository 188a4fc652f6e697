import type { ServerOptions } from 'node:http';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import type { Logger } from '../ports/logger.js';

/** A client has this long to send its request line and headers (Node's default is a minute). */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * ...and this long for the whole request, body included: the body-read deadline. A JSON body is at most 1 MiB,
 * seconds on any real link; a client dribbling a byte at a time held a connection (and its memory) for as long
 * as it liked, and 15,500 of them ran the process out of file descriptors. Node answers 408 and closes.
 * Only receiving the request counts: a generation that takes minutes to answer is not cut off.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface ConnectionLimits {
  /** Open connections at most; past it, a new connection is closed at once (MAX_CONNECTIONS). */
  maxConnections: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

interface LimitedServerOptions {
  fetch: (request: Request, env: unknown) => Response | Promise<Response>;
  hostname?: string;
  limits: ConnectionLimits;
  logger: Pick<Logger, 'warn'>;
}

/** Refused connections are logged at most this often: a flood must not become a flood of log lines. */
const DROP_LOG_INTERVAL_MS = 10_000;

/** The HTTP server with its deadlines and its cap on connections; not yet listening. */
export function createLimitedServer({ fetch, hostname, limits, logger }: LimitedServerOptions): ServerType {
  const requestTimeout = limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(limits.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout);
  const serverOptions: ServerOptions = {
    headersTimeout,
    requestTimeout,
    // Node checks the two deadlines on this interval (30 s by default), which would let a slow client run late.
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
  };
  const server = createAdaptorServer({ fetch, hostname, serverOptions });
  server.maxConnections = limits.maxConnections;

  let refused = 0;
  let lastLogged = 0;
  server.on('drop', () => {
    refused += 1;
    const now = Date.now();
    if (now - lastLogged < DROP_LOG_INTERVAL_MS) return;
    logger.warn({ refused, maxConnections: limits.maxConnections }, 'refusing connections: MAX_CONNECTIONS are open');
    lastLogged = now;
    refused = 0;
  });
  return server;
}
