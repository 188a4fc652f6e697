import { createRoute } from '@hono/zod-openapi';
import { createTemplate, listTemplates } from '../../../domain/templates/template-verbs.js';
import { requestContext } from '../../app-env.js';
import { PageQuerySchema, errorResponses, jsonBody, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CreateTemplateSchema, TemplateListSchema, TemplateSchema } from './schemas.js';

const listRoute = createRoute({
  method: 'get',
  path: '/api/templates',
  tags: ['Templates'],
  summary: 'List your templates and the pre-loaded samples, newest first',
  request: { query: PageQuerySchema },
  responses: { 200: jsonContent(TemplateListSchema, 'A page of templates'), ...errorResponses },
});

const createRouteDef = createRoute({
  method: 'post',
  path: '/api/templates',
  tags: ['Templates'],
  summary: 'Save generation settings as a template',
  request: jsonBody(CreateTemplateSchema),
  responses: { 201: jsonContent(TemplateSchema, 'The new template'), ...errorResponses },
});

export const registerListAndCreateTemplates: RegisterRoutes = (app, deps) => {
  app.openapi(listRoute, async (c) => {
    return c.json(await listTemplates({ deps, ctx: requestContext(c.var), input: pageRequest(c.req.valid('query')) }), 200);
  });
  app.openapi(createRouteDef, async (c) => {
    return c.json(await createTemplate({ deps, ctx: requestContext(c.var), input: c.req.valid('json') }), 201);
  });
};
