import { createRoute } from '@hono/zod-openapi';
import { updateTemplate } from '../../../domain/templates/template-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { TemplateIdParamSchema, TemplateSchema, UpdateTemplateSchema } from './schemas.js';

const route = createRoute({
  operationId: 'updateTemplate',
  method: 'put',
  path: '/api/templates/{id}',
  ...requires('manage'),
  tags: ['Templates'],
  summary: 'Update a template (samples are read-only: 403)',
  request: { params: TemplateIdParamSchema, ...jsonBody(UpdateTemplateSchema) },
  responses: { 200: jsonContent(TemplateSchema, 'The updated template'), ...errorResponses },
});

export const registerUpdateTemplate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const input = { templateId: c.req.valid('param').id, changes: c.req.valid('json') };
    return c.json(await updateTemplate({ deps, ctx: requestContext(c), input }), 200);
  });
};
