import { createRoute } from '@hono/zod-openapi';
import { paginate } from '../../../domain/pagination.js';
import { requires } from '../../route-table.js';
import { PageQuerySchema, errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import { catalogView } from '../../../domain/models/catalog.js';
import type { RegisterRoutes } from '../types.js';
import { ModelListSchema } from './schemas.js';

const route = createRoute({
  operationId: 'listModels',
  method: 'get',
  path: '/api/models',
  ...requires('read'),
  tags: ['Models'],
  summary: 'List the model catalogue with costs and availability',
  request: { query: PageQuerySchema },
  responses: { 200: jsonContent(ModelListSchema, 'A page of models'), ...errorResponses },
});

export const registerListModels: RegisterRoutes = (app, deps) => {
  app.openapi(route, (c) => {
    const request = pageRequest(c.req.valid('query'));
    const now = deps.clock.now();
    const all = deps.catalog.list().map((entry) => catalogView(entry, now));
    const page = { items: all.slice(request.offset, request.offset + request.limit), total: all.length };
    const { items, pagination } = paginate(page, request, (model) => model);
    return c.json({ models: items, pagination }, 200);
  });
};
