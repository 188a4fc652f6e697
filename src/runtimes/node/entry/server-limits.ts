import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import type { Logger } from '../../../ports/logger.js';

/** A client has this long to send its request line and headers (Node's default is a minute). */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * ...and a request body must keep arriving: a window this long in which fewer than MIN_BODY_PROGRESS_BYTES came is
 * the end of it (408, and the connection closed). A client dribbling a byte at a time held a connection (and its
 * memory) for as long as it liked, and 15,500 of them ran the process out of file descriptors; a deadline on the
 * whole request instead cut off a client steadily sending a 50 MB upload over a slow link (or while the server
 * was busy). Time the server itself holds the body back (an upload waiting its turn) does not count, and neither
 * does a generation that takes minutes to answer once the request is in.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
/** 64 KiB in a window: about 2 KB/s over 30 s, far below any real link and far above a drip. */
export const MIN_BODY_PROGRESS_BYTES = 64 * 1024;

export interface ConnectionLimits {
  /** Open connections at most; past it, a new connection is closed at once (MAX_CONNECTIONS). */
  maxConnections: number;
  headersTimeoutMs?: number;
  /** The body's progress window (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Bytes a body must bring in each window (MIN_BODY_PROGRESS_BYTES). */
  minBodyProgressBytes?: number;
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
    // Node's own deadline counts the whole request, however steadily it arrives: watchBodies keeps the body's instead.
    requestTimeout: 0,
    // Node checks the headers deadline on this interval (30 s by default), which would let a slow client run late.
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
  };
  const server = createAdaptorServer({ fetch, hostname, serverOptions });
  server.maxConnections = limits.maxConnections;
  watchBodies(server, { windowMs: requestTimeout, minBytes: limits.minBodyProgressBytes ?? MIN_BODY_PROGRESS_BYTES }, logger);

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

interface Watched {
  req: IncomingMessage;
  res: ServerResponse;
  /** The socket's byte count when the window opened. */
  bytesAtStart: number;
  windowStart: number;
}

/**
 * Every request whose body is still coming is looked at on one timer: the socket's byte count says how much arrived
 * since its window opened. A body the app is not reading (its buffer full: an upload waiting its turn) opens a new
 * window, since the client cannot send while we hold it back. A window that ends with too little is answered 408,
 * as Node's own deadline would be (or just closed once an answer has started), and the socket is destroyed.
 */
function watchBodies(server: ServerType, { windowMs, minBytes }: { windowMs: number; minBytes: number }, logger: Pick<Logger, 'warn'>): void {
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = Date.now();
    for (const entry of watched) {
      const { req, res } = entry;
      if (req.complete || req.destroyed) {
        watched.delete(entry);
        continue;
      }
      // Not read at all yet (an upload waiting its turn: nothing consumes it, and the client may not have sent a byte
      // of it yet), or read no further until the app takes what is buffered: either way we hold it back.
      const held = req.readableFlowing === null || req.readableLength >= req.readableHighWaterMark;
      const arrived = req.socket.bytesRead - entry.bytesAtStart;
      if (held || (now - entry.windowStart >= windowMs && arrived >= minBytes)) {
        entry.windowStart = now;
        entry.bytesAtStart = req.socket.bytesRead;
      } else if (now - entry.windowStart >= windowMs) {
        watched.delete(entry);
        logger.warn(
          { method: req.method, path: req.url?.split('?')[0], bodyBytesInWindow: arrived, windowMs },
          'cut off a request whose body stopped arriving (408)',
        );
        if (!res.headersSent && req.socket.writable) req.socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        req.socket.destroySoon();
      }
    }
    if (watched.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete || req.method === 'GET' || req.method === 'HEAD') return;
    watched.add({ req, res, bytesAtStart: req.socket.bytesRead, windowStart: Date.now() });
    if (timer === undefined) {
      timer = setInterval(check, Math.max(50, Math.min(1000, windowMs / 4)));
      timer.unref();
    }
  });
}
