import { createRoute } from '@hono/zod-openapi';
import { deleteTemplate, getTemplate, updateTemplate } from '../../../domain/templates/template-verbs.js';
import { requestContext } from '../../app-env.js';
import { errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { DeletedTemplateSchema, TemplateIdParamSchema, TemplateSchema, UpdateTemplateSchema } from './schemas.js';

const getRoute = createRoute({
  method: 'get',
  path: '/api/templates/{id}',
  tags: ['Templates'],
  summary: 'Get a template (yours or a sample)',
  request: { params: TemplateIdParamSchema },
  responses: { 200: jsonContent(TemplateSchema, 'The template'), ...errorResponses },
});

const updateRoute = createRoute({
  method: 'put',
  path: '/api/templates/{id}',
  tags: ['Templates'],
  summary: 'Update a template (samples are read-only: 403)',
  request: { params: TemplateIdParamSchema, ...jsonBody(UpdateTemplateSchema) },
  responses: { 200: jsonContent(TemplateSchema, 'The updated template'), ...errorResponses },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/templates/{id}',
  tags: ['Templates'],
  summary: 'Delete a template (samples are read-only: 403)',
  request: { params: TemplateIdParamSchema },
  responses: { 200: jsonContent(DeletedTemplateSchema, 'The template is deleted'), ...errorResponses },
});

export const registerTemplateById: RegisterRoutes = (app, deps) => {
  app.openapi(getRoute, async (c) => {
    return c.json(await getTemplate({ deps, ctx: requestContext(c.var), input: { templateId: c.req.valid('param').id } }), 200);
  });
  app.openapi(updateRoute, async (c) => {
    const input = { templateId: c.req.valid('param').id, changes: c.req.valid('json') };
    return c.json(await updateTemplate({ deps, ctx: requestContext(c.var), input }), 200);
  });
  app.openapi(deleteRoute, async (c) => {
    return c.json(await deleteTemplate({ deps, ctx: requestContext(c.var), input: { templateId: c.req.valid('param').id } }), 200);
  });
};
