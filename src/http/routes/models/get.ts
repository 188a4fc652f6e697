import { z } from '@hono/zod-openapi';
import { notFound } from '../../../domain/errors.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import { catalogView } from '../../../domain/models/catalog.js';
import type { RegisterRoutes } from '../types.js';
import { ModelSchema } from './schemas.js';

/** Model ids contain slashes (`@cf/black-forest-labs/flux-1-schnell`): accepted raw or URL-encoded, so Hono's pattern is `:id{.+}`. */
export const registerGetModel: RegisterRoutes = (app, deps) => {
  app.get('/api/models/:id{.+}', (c) => {
    const id = c.req.param('id');
    const model = deps.catalog.find(id);
    if (model === undefined) throw notFound('Model', 'model', id);
    return c.json(catalogView(model, deps.clock.now()), 200);
  });
  app.openAPIRegistry.registerPath({
    operationId: 'getModel',
    method: 'get',
    path: '/api/models/{id}',
    ...requires('read'),
    tags: ['Models'],
    summary: 'Get one model; the id may be URL-encoded or given with its slashes raw',
    request: { params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'local/procedural' }) }) },
    responses: { 200: jsonContent(ModelSchema, 'The model'), 404: errorResponses[404] },
  });
};
