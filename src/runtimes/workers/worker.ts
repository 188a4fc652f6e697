import type { ExecutionContext } from 'hono';
import type { MessageBatch } from '../../adapters/queue/queue-messages.js';
import { ConfigError } from '../../config/config.js';
import { ApiError } from '../../domain/errors.js';
import type { WorkerBindings } from './bindings.js';
import { SchemaMissing } from './deps.js';
import { createWorkerService, runScheduledSweep, type WorkerService } from './service.js';

export { GenerationEventHub } from '../../adapters/events/durable-object-generation-events.js';
export { RateLimitCounter } from '../../adapters/rate-limit/durable-object-rate-limiter.js';

/** Built once per isolate, on its first event; a failed build is forgotten, so the next event tries again. */
let ready: Promise<WorkerService> | undefined;

function serviceOf(env: WorkerBindings, origin: string | undefined): Promise<WorkerService> {
  ready ??= createWorkerService(env, { origin }).catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

/** What the operator must fix, said to whoever calls: a missing schema, a bad setting (named, never its value). */
export function unavailableResponse(error: unknown): Response | undefined {
  if (!(error instanceof SchemaMissing || error instanceof ConfigError)) return undefined;
  const body = new ApiError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { message: error.message }).toBody();
  return Response.json(body, { status: 503, headers: { 'Retry-After': '5' } });
}

export default {
  async fetch(request: Request, env: WorkerBindings, ctx: ExecutionContext): Promise<Response> {
    // The API reference page needs swagger-ui's files from node_modules (Node serves them); here, its document.
    if (new URL(request.url).pathname === '/docs') return Response.redirect(new URL('/openapi.json', request.url).toString(), 302);
    let service: WorkerService;
    try {
      service = await serviceOf(env, new URL(request.url).origin);
    } catch (error) {
      const unavailable = unavailableResponse(error);
      if (unavailable !== undefined) return unavailable;
      throw error;
    }
    return service.app.fetch(request, env, ctx);
  },

  /** Batches of the JOBS Queue: batch prompts and webhook deliveries, run by the handlers registered at build. */
  async queue(batch: MessageBatch, env: WorkerBindings): Promise<void> {
    const service = await serviceOf(env, undefined);
    await service.queue.consume(batch);
  },

  /** The Cron Trigger: the periodic sweeps (see runScheduledSweep). */
  async scheduled(_event: unknown, env: WorkerBindings): Promise<void> {
    const service = await serviceOf(env, undefined).catch((error: unknown) => {
      console.error('scheduled sweep: the service could not start', error);
      throw error;
    });
    await runScheduledSweep(service);
  },
};
