import { createRoute } from '@hono/zod-openapi';
import { addImageToCollection } from '../../../domain/collections/change-collections.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { AddImageSchema, CollectionIdParamSchema, MembershipSchema } from './schemas.js';

const route = createRoute({
  operationId: 'addImageToCollection',
  method: 'post',
  path: '/api/collections/{id}/images',
  ...requires('manage'),
  tags: ['Collections'],
  summary: 'Add one of your images to a collection',
  description: 'Idempotent: 201 when added, 200 when the image was already in the collection.',
  request: { params: CollectionIdParamSchema, ...jsonBody(AddImageSchema) },
  responses: {
    201: jsonContent(MembershipSchema, 'Added'),
    200: jsonContent(MembershipSchema, 'Already in the collection'),
    ...errorResponses,
  },
});

export const registerAddImageToCollection: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const input = { collectionId: c.req.valid('param').id, imageId: c.req.valid('json').image_id };
    const membership = await addImageToCollection({ deps, ctx: requestContext(c), input });
    return membership.added ? c.json(membership, 201) : c.json(membership, 200);
  });
};
