import { createRoute } from '@hono/zod-openapi';
import { listTemplates } from '../../../domain/templates/template-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { PageQuerySchema, errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { TemplateListSchema } from './schemas.js';

const route = createRoute({
  operationId: 'listTemplates',
  method: 'get',
  path: '/api/templates',
  ...requires('read'),
  tags: ['Templates'],
  summary: 'List your templates and the pre-loaded samples, newest first',
  request: { query: PageQuerySchema },
  responses: { 200: jsonContent(TemplateListSchema, 'A page of templates'), ...errorResponses },
});

export const registerListTemplates: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await listTemplates({ deps, ctx: requestContext(c), input: pageRequest(c.req.valid('query')) }), 200));
};
