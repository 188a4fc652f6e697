import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../domain/context.js';
import type { ReadinessCheck } from '../../../ports/readiness.js';
import { jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';

/** A dependency slower than this counts as down: a load balancer's probe must get its answer well within its own timeout. */
export const READY_TIMEOUT_MS = 2_000;

const HealthSchema = z.object({ status: z.enum(['ok']) }).openapi('Health');

const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    checks: z.record(z.string(), z.string()).openapi({ example: { database: 'ok', storage: 'ok', redis: 'ok' } }),
  })
  .openapi('Readiness');

const liveness = createRoute({
  operationId: 'getHealth',
  method: 'get',
  path: '/health',
  tags: ['Service'],
  summary: 'Liveness: the process is up; needs no key',
  description:
    'Answers 200 while the process runs, even when the database is out: restarting the process would not bring it back. Readiness is `/health/ready`.',
  security: [],
  responses: { 200: jsonContent(HealthSchema, 'The process is up') },
});

const live = createRoute({
  operationId: 'getLiveness',
  method: 'get',
  path: '/health/live',
  tags: ['Service'],
  summary: 'Liveness for a Kubernetes livenessProbe: the process runs; needs no key',
  description: 'The same answer as `/health`: 200 while the process runs, whatever its dependencies do (a restart would not bring them back).',
  security: [],
  responses: { 200: jsonContent(HealthSchema, 'The process is up') },
});

const readiness = createRoute({
  operationId: 'getReadiness',
  method: 'get',
  path: '/health/ready',
  tags: ['Service'],
  summary:
    'Readiness for a Kubernetes readinessProbe: the database answers, storage takes a write and a delete (checked at most every 5 s), Redis answers; needs no key',
  description: `Each dependency must answer within ${READY_TIMEOUT_MS} ms. A load balancer stops sending traffic on 503; \`checks\` names what failed.`,
  security: [],
  responses: {
    200: jsonContent(ReadinessSchema, 'Every dependency answers'),
    503: jsonContent(ReadinessSchema, 'A dependency does not answer; `checks` says which'),
  },
});

/** `ok`, or in words why not; never waits longer than the timeout, whatever the dependency does. */
async function probe(check: ReadinessCheck, deps: Pick<Deps, 'logger'>): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
  });
  const answered = check.check().then(
    () => 'ok',
    (error: unknown) => {
      deps.logger.warn({ dependency: check.name, err: error instanceof Error ? error.message : String(error) }, 'readiness check failed');
      return 'unavailable';
    },
  );
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export const registerHealth: RegisterRoutes = (app, deps) => {
  app.openapi(liveness, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(live, (c) => c.json({ status: 'ok' as const }, 200));

  app.openapi(readiness, async (c) => {
    const results = await Promise.all(deps.readiness.map(async (check) => [check.name, await probe(check, deps)] as const));
    const checks = Object.fromEntries(results);
    const ready = results.every(([, result]) => result === 'ok');
    return ready ? c.json({ status: 'ready' as const, checks }, 200) : c.json({ status: 'unavailable' as const, checks }, 503);
  });
};
