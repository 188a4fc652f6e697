import { createRoute, z } from '@hono/zod-openapi';
import { notFound } from '../../../domain/errors.js';
import { catalogView, type CatalogEntry } from '../../../domain/models/catalog.js';
import { requires } from '../../route-table.js';
import { jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { openAiNames } from './model-names.js';
import { OpenAiModelListSchema, OpenAiModelSchema, openAiErrorResponses } from './schemas.js';

/**
 * The catalogue has no creation dates; OpenAI's clients only need a number, so every model carries the day the
 * compatible surface appeared (2026-11-01), which never changes between calls.
 */
const CREATED = Math.floor(Date.parse('2026-11-01T00:00:00Z') / 1000);

const toOpenAiModel = (model: CatalogEntry) => ({ id: model.id, object: 'model' as const, created: CREATED, owned_by: model.provider });

const listRoute = createRoute({
  operationId: 'openAiListModels',
  method: 'get',
  path: '/v1/models',
  ...requires('read'),
  tags: ['OpenAI-compatible'],
  summary: "The models that can generate here, in OpenAI's list shape (GET /api/models has the whole catalogue with prices)",
  responses: { 200: jsonContent(OpenAiModelListSchema, 'The models'), ...openAiErrorResponses },
});

export const registerOpenAiModels: RegisterRoutes = (app, deps) => {
  app.openapi(listRoute, (c) => {
    const now = deps.clock.now();
    const data = deps.catalog
      .list()
      .filter((entry) => catalogView(entry, now).available)
      .map(toOpenAiModel);
    // OpenAI code names OpenAI's models by OpenAI's names; those work here too when OpenAI is configured.
    for (const { name, entry } of openAiNames(deps.catalog, now)) data.push({ ...toOpenAiModel(entry), id: name });
    return c.json({ object: 'list' as const, data }, 200);
  });

  // Ids contain slashes (`local/procedural`), which OpenAI's SDKs send encoded or raw: the id is the rest of the path.
  app.get('/v1/models/:id{.+}', (c) => {
    const id = c.req.param('id');
    const model = deps.catalog.find(id) ?? openAiNames(deps.catalog, deps.clock.now()).find((named) => named.name === id)?.entry;
    if (model === undefined) throw notFound('Model', 'model', id);
    return c.json({ ...toOpenAiModel(model), id }, 200);
  });
  app.openAPIRegistry.registerPath({
    operationId: 'openAiRetrieveModel',
    method: 'get',
    path: '/v1/models/{id}',
    ...requires('read'),
    tags: ['OpenAI-compatible'],
    summary: "One model in OpenAI's shape; the id may be URL-encoded or given with its slashes raw",
    request: { params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'local/procedural' }) }) },
    responses: { 200: jsonContent(OpenAiModelSchema, 'The model'), 404: openAiErrorResponses[404] },
  });
};
