import { createRoute, z } from '@hono/zod-openapi';
import { jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';

const HealthSchema = z
  .object({ status: z.enum(['ok', 'unavailable']), details: z.record(z.string(), z.string()).optional() })
  .openapi('Health');

const route = createRoute({
  operationId: 'getHealth',
  method: 'get',
  path: '/health',
  tags: ['Service'],
  summary: 'Liveness and database readiness; needs no key',
  security: [],
  responses: {
    200: jsonContent(HealthSchema, 'The service can answer requests'),
    503: jsonContent(HealthSchema, 'The database does not answer'),
  },
});

export const registerHealth: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    try {
      await deps.db.ping();
      return c.json({ status: 'ok' as const }, 200);
    } catch (error) {
      deps.logger.error({ err: error }, 'health check: database unavailable');
      return c.json({ status: 'unavailable' as const, details: { database: 'not ready' } }, 503);
    }
  });
};
