import { createRoute } from '@hono/zod-openapi';
import { deleteTemplate } from '../../../domain/templates/template-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { DeletedTemplateSchema, TemplateIdParamSchema } from './schemas.js';

const route = createRoute({
  operationId: 'deleteTemplate',
  method: 'delete',
  path: '/api/templates/{id}',
  ...requires('manage'),
  tags: ['Templates'],
  summary: 'Delete a template (samples are read-only: 403)',
  request: { params: TemplateIdParamSchema },
  responses: { 200: jsonContent(DeletedTemplateSchema, 'The template is deleted'), ...errorResponses },
});

export const registerDeleteTemplate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await deleteTemplate({ deps, ctx: requestContext(c), input: { templateId: c.req.valid('param').id } }), 200));
};
