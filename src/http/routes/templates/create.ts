import { createRoute } from '@hono/zod-openapi';
import { createTemplate } from '../../../domain/templates/template-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CreateTemplateSchema, TemplateSchema } from './schemas.js';

const route = createRoute({
  operationId: 'createTemplate',
  method: 'post',
  path: '/api/templates',
  ...requires('manage'),
  tags: ['Templates'],
  summary: 'Save generation settings as a template',
  request: jsonBody(CreateTemplateSchema),
  responses: { 201: jsonContent(TemplateSchema, 'The new template'), ...errorResponses },
});

export const registerCreateTemplate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await createTemplate({ deps, ctx: requestContext(c), input: c.req.valid('json') }), 201));
};
