import { OpenAPIHono } from '@hono/zod-openapi';
import type { Config } from './config/config.js';
import type { Deps } from './domain/context.js';
import type { AppEnv } from './http/app-env.js';
import type { Context } from 'hono';
import { onError, onNotFound } from './http/errors.js';
import { validationError } from './domain/validation-error.js';
import { createRouteTable } from './http/route-table.js';
import { installValidationMessages } from './domain/validation-messages.js';
import { createKeyAuthenticator } from './domain/keys/authenticate.js';
import { apiKey, defaultUser } from './http/middleware/api-key.js';
import { cors, preflight } from './http/middleware/cors.js';
import { idempotency, type ClaimLease } from './http/middleware/idempotency.js';
import { ipAllowlist } from './http/middleware/ip-allowlist.js';
import { jsonBody } from './http/middleware/json-body.js';
import { createMemoryStaging } from './http/multipart/memory-staging.js';
import type { UploadStaging } from './ports/upload-staging.js';
import { urlText } from './http/middleware/url-text.js';
import { rateLimit } from './http/middleware/rate-limit.js';
import { httpMetrics } from './http/middleware/http-metrics.js';
import { registerMetrics } from './http/routes/system/metrics.js';
import { requirePermission } from './http/middleware/require-permission.js';
import { requestLog } from './http/middleware/request-log.js';
import { responseHeaders } from './http/response-headers.js';
import { traceRequest } from './http/middleware/trace-request.js';
import { tracingEnabled } from './ports/tracer.js';
import { registerAnalyticsRoutes } from './http/routes/analytics/index.js';
import { registerBatchRoutes } from './http/routes/batch/index.js';
import { registerCollectionRoutes } from './http/routes/collections/index.js';
import { registerGenerationRoutes } from './http/routes/generations/index.js';
import { registerImageRoutes } from './http/routes/images/index.js';
import { registerKeyRoutes } from './http/routes/keys/index.js';
import { MCP_PATH, registerMcpRoutes } from './http/routes/mcp/index.js';
import { registerModelRoutes } from './http/routes/models/index.js';
import { registerOpenAiRoutes } from './http/routes/openai/index.js';
import { registerSystemRoutes } from './http/routes/system/index.js';
import { registerTemplateRoutes } from './http/routes/templates/index.js';
import { registerWebhookRoutes } from './http/routes/webhooks/index.js';
import { registerMe } from './http/routes/me/get.js';

export type AppConfig = Pick<Config, 'authMode' | 'allowedIps' | 'clientIpHeader'> & { metrics?: Pick<Config['metrics'], 'token'> };

export interface CreateAppOptions {
  deps: Deps;
  config: AppConfig;
  /** Serve the local blob store at `/files/*` (only when objects live on this machine). */
  serveFiles?: boolean;
  /** The peer address of a request, for limiting failed authentications; the Node entry reads the socket. */
  clientAddress?: (c: Context) => string;
  /** The package version the app reports (/openapi.json, /app/config.json, MCP); Node's root reads package.json. */
  version: string;
  /** Where multipart files are kept while their request runs; in memory by default (Workers), on disk on Node. */
  uploadStaging?: UploadStaging;
  /** The lease of a running Idempotency-Key claim; defaults to CLAIM_LEASE (tests renew faster). */
  idempotencyLease?: ClaimLease;
}

/** Path patterns of the authenticated APIs. */
const API_PREFIXES = ['/api/*', '/v1/*'] as const;

/** Methods whose requests carry a body the API reads. */
const BODY_METHODS = ['POST', 'PUT', 'PATCH'] as const;

/** Failed authentications per client address and minute before they answer 429. */
export const FAILED_AUTH_PER_MINUTE = 20;

/**
 * Runtime-neutral: nothing here reads a disk or needs Node (npm run lint checks). The Node server adds the
 * docs and web-app pages with `createNodeApp` (src/runtimes/node/app.ts).
 *
 * Middleware order is part of the contract: logging and CORS wrap everything so even the allow-list's
 * plain `Forbidden` carries them; the allow-list then runs before any other processing, preflight included.
 */
export function createApp({
  deps,
  config,
  version,
  serveFiles = false,
  clientAddress = () => 'unknown',
  idempotencyLease,
  uploadStaging = createMemoryStaging(),
}: CreateAppOptions): OpenAPIHono<AppEnv> {
  installValidationMessages();
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result);
    },
  });
  const routes = createRouteTable(app);
  const now = () => deps.clock.now().getTime();

  // Outermost: the headers every response carries (request id, CORS, rate limit), whatever answered.
  app.use('*', responseHeaders());
  // Then the request's span is active in everything below, so every log line of the request names its trace.
  // Tracing starts before the app is made (src/runtimes/node/entry/node.ts), or not at all: without it, no span layer.
  if (tracingEnabled()) app.use('*', traceRequest({ routes }));
  app.use('*', requestLog({ logger: deps.logger }));
  app.use('*', cors());
  // Each layer costs every request (a tenth of a cached gallery page's time for four of them, profiled): a layer
  // that would do nothing for a request is not in its way. Metrics are recorded only where they can be scraped.
  if (config.metrics?.token !== undefined) app.use('*', httpMetrics({ metrics: deps.metrics, routes }));
  if (config.authMode === 'ip_allowlist') {
    app.use('*', ipAllowlist({ allowedIps: config.allowedIps, header: config.clientIpHeader }));
  }
  routes.useFor('OPTIONS', '*', preflight());

  // /api is imagegate's own API, /v1 OpenAI's shape of it, /mcp the same verbs as MCP tools: all behind the
  // same keys and limits; /api and /v1 also check each route's permission and body here (MCP tools check theirs).
  for (const prefix of [...API_PREFIXES, MCP_PATH]) {
    if (config.authMode === 'ip_allowlist') {
      app.use(prefix, defaultUser());
    } else {
      const failures = { limiter: deps.rateLimiter, perMinute: FAILED_AUTH_PER_MINUTE, clientAddress, now, metrics: deps.metrics };
      app.use(prefix, apiKey({ authenticator: createKeyAuthenticator(deps), failures }));
      app.use(prefix, rateLimit({ limiter: deps.rateLimiter, now, metrics: deps.metrics }));
    }
  }
  for (const prefix of API_PREFIXES) {
    if (config.authMode === 'api_key') app.use(prefix, requirePermission({ routes }));
    app.use(prefix, urlText());
    // Only requests that carry a body have one to check; only POST routes declare Idempotency-Key.
    routes.useFor(BODY_METHODS, prefix, jsonBody({ routes, uploads: { staging: uploadStaging, gate: deps.uploadGates.receive } }));
    routes.useFor('POST', prefix, idempotency({ routes, deps, lease: idempotencyLease }));
  }

  registerImageRoutes(app, deps);
  registerGenerationRoutes(app, deps);
  registerCollectionRoutes(app, deps);
  registerModelRoutes(app, deps);
  registerTemplateRoutes(app, deps);
  registerAnalyticsRoutes(app, deps);
  registerBatchRoutes(app, deps);
  registerWebhookRoutes(app, deps);
  registerMe(app, deps);
  registerOpenAiRoutes(app, deps);
  registerMcpRoutes(app, deps, { version });
  if (config.authMode === 'api_key') registerKeyRoutes(app, deps);
  registerSystemRoutes(app, deps, { serveFiles, keyAuth: config.authMode === 'api_key', version });
  if (config.metrics?.token !== undefined) registerMetrics(app, deps.metrics, config.metrics.token);

  app.onError(onError(deps.logger, { describeParameterErrors: config.authMode === 'api_key' }));
  app.notFound(onNotFound(routes));
  return app;
}
