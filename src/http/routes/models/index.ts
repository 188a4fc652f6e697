import { createRoute } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import { notFound } from '../../../domain/errors.js';
import { paginate } from '../../../domain/pagination.js';
import { PageQuerySchema, errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { ModelListSchema, ModelSchema } from './schemas.js';

const listRoute = createRoute({
  method: 'get',
  path: '/api/models',
  tags: ['Models'],
  summary: 'List the model catalogue with costs and availability',
  request: { query: PageQuerySchema },
  responses: { 200: jsonContent(ModelListSchema, 'A page of models'), ...errorResponses },
});

export const registerModelRoutes: RegisterRoutes = (app, deps) => {
  app.openapi(listRoute, (c) => {
    const request = pageRequest(c.req.valid('query'));
    const all = deps.catalog.list();
    const { items, pagination } = paginate(
      { items: all.slice(request.offset, request.offset + request.limit), total: all.length },
      request,
      (model) => model,
    );
    return c.json({ models: items, pagination }, 200);
  });

  // Model ids contain slashes (`@cf/black-forest-labs/flux-1-schnell`): accept them raw or URL-encoded.
  app.get('/api/models/:id{.+}', (c) => {
    const id = c.req.param('id');
    const model = deps.catalog.find(id);
    if (model === undefined) throw notFound('Model', 'model', id);
    return c.json(model, 200);
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/models/{id}',
    tags: ['Models'],
    summary: 'Get one model; the id may be URL-encoded or given with its slashes raw',
    request: { params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'local/procedural' }) }) },
    responses: { 200: jsonContent(ModelSchema, 'The model'), 404: errorResponses[404] },
  });
};
