import { createRoute } from '@hono/zod-openapi';
import { getTemplate } from '../../../domain/templates/template-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { TemplateIdParamSchema, TemplateSchema } from './schemas.js';

const route = createRoute({
  operationId: 'getTemplate',
  method: 'get',
  path: '/api/templates/{id}',
  ...requires('read'),
  tags: ['Templates'],
  summary: 'Get a template (yours or a sample)',
  request: { params: TemplateIdParamSchema },
  responses: { 200: jsonContent(TemplateSchema, 'The template'), ...errorResponses },
});

export const registerGetTemplate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await getTemplate({ deps, ctx: requestContext(c), input: { templateId: c.req.valid('param').id } }), 200));
};
