import { createRoute } from '@hono/zod-openapi';
import { listCollectionImages } from '../../../domain/collections/read-collections.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { PageQuerySchema, errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CollectionIdParamSchema, CollectionImagesSchema } from './schemas.js';

const route = createRoute({
  operationId: 'listCollectionImages',
  method: 'get',
  path: '/api/collections/{id}/images',
  ...requires('read'),
  tags: ['Collections'],
  summary: 'List the images in a collection, most recently added first',
  request: { params: CollectionIdParamSchema, query: PageQuerySchema },
  responses: { 200: jsonContent(CollectionImagesSchema, 'A page of images'), ...errorResponses },
});

export const registerListCollectionImages: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const input = { collectionId: c.req.valid('param').id, ...pageRequest(c.req.valid('query')) };
    return c.json(await listCollectionImages({ deps, ctx: requestContext(c), input }), 200);
  });
};
