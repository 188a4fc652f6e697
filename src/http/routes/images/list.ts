import { createRoute } from '@hono/zod-openapi';
import { listImages } from '../../../domain/images/list-images.js';
import { frozenJson } from '../../frozen-json.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { ImageListQuerySchema, ImageListSchema } from './schemas.js';

const route = createRoute({
  operationId: 'listImages',
  method: 'get',
  path: '/api/images',
  ...requires('read'),
  tags: ['Images'],
  summary: 'List your images, newest first (soft-deleted ones are hidden); search by prompt, filter by model, kind (uploads), lineage and date',
  request: { query: ImageListQuerySchema },
  responses: { 200: jsonContent(ImageListSchema, 'A page of images'), ...errorResponses },
});

export const registerListImages: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    // Field by field: object rest and spread cost this, the hottest route, a tenth of its time (profiled).
    const query = c.req.valid('query');
    const { limit, offset } = pageRequest(query);
    const input = {
      limit,
      offset,
      q: query.q,
      model: query.model,
      kind: query.kind,
      derivedFrom: query.derived_from,
      from: query.from,
      to: query.to,
      cursor: query.cursor,
    };
    const result = await listImages({ deps, ctx: requestContext(c), input });
    return frozenJson(c, result, 200);
  });
};
