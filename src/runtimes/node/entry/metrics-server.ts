import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartupError, errorCode } from '../../../adapters/process/startup-error.js';
import { ApiError } from '../../../domain/errors.js';
import { METRICS_PATH, scrapeAuthorized, scrapeRefused } from '../../../http/routes/system/metrics.js';
import type { Logger } from '../../../ports/logger.js';
import type { Metrics } from '../../../ports/metrics.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  metrics: Pick<Metrics, 'scrape'>;
  token: string;
  host: string;
  port: number;
  logger: Logger;
}

/**
 * `GET /metrics` for a process without an HTTP API (`imagegate worker`), on METRICS_PORT: the same token and answers
 * as the API's `/metrics`, and nothing else (404 for any other path, in the API's error shape).
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    void answer(options, request, response).catch((error: unknown) => {
      options.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'could not answer a metrics scrape');
      if (!response.headersSent) send(response, 500, new ApiError('INTERNAL_ERROR', 'Internal server error').toBody());
      else response.destroy();
    });
  });
  // Scrapes are short; a connection that says nothing is not kept.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, options)));
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}${METRICS_PATH}` }, 'metrics served');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

async function answer(options: MetricsServerOptions, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const method = request.method ?? 'GET';
  const path = new URL(request.url ?? '/', 'http://worker').pathname;
  if (path !== METRICS_PATH) {
    send(response, 404, new ApiError('NOT_FOUND', 'Not found', { method, path, message: `this port serves ${METRICS_PATH} only` }).toBody());
    return;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    const message = `${METRICS_PATH} accepts GET, HEAD, not ${method}`;
    send(response, 405, new ApiError('METHOD_NOT_ALLOWED', 'Method not allowed', { method, path, allowed: ['GET', 'HEAD'], message }).toBody(), {
      Allow: 'GET, HEAD',
    });
    return;
  }
  const authorization = request.headers.authorization;
  if (!(await scrapeAuthorized(authorization, options.token))) {
    send(response, 401, scrapeRefused(authorization).toBody(), { 'WWW-Authenticate': 'Bearer' });
    return;
  }
  const { contentType, body } = await options.metrics.scrape();
  response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  response.end(method === 'HEAD' ? undefined : body);
}

function send(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function listenError(error: Error, { port, host }: Pick<MetricsServerOptions, 'port' | 'host'>): Error {
  switch (errorCode(error)) {
    case 'EADDRINUSE':
      return new StartupError(`METRICS_PORT ${port} is already in use on ${host}; stop the other process or set METRICS_PORT`);
    case 'EACCES':
      return new StartupError(`METRICS_PORT ${port} on ${host} needs privileges this user does not have; set METRICS_PORT to 1024 or above`);
    default:
      return error;
  }
}
