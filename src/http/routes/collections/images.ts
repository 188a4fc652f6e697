import { createRoute } from '@hono/zod-openapi';
import { addImageToCollection, removeImageFromCollection } from '../../../domain/collections/change-collections.js';
import { listCollectionImages } from '../../../domain/collections/read-collections.js';
import { requestContext } from '../../app-env.js';
import { PageQuerySchema, errorResponses, jsonBody, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import {
  AddImageSchema,
  CollectionIdParamSchema,
  CollectionImagesSchema,
  MembershipParamSchema,
  MembershipSchema,
  RemovedMembershipSchema,
} from './schemas.js';

const listRoute = createRoute({
  method: 'get',
  path: '/api/collections/{id}/images',
  tags: ['Collections'],
  summary: 'List the images in a collection, most recently added first',
  request: { params: CollectionIdParamSchema, query: PageQuerySchema },
  responses: { 200: jsonContent(CollectionImagesSchema, 'A page of images'), ...errorResponses },
});

const addRoute = createRoute({
  method: 'post',
  path: '/api/collections/{id}/images',
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

const removeRoute = createRoute({
  method: 'delete',
  path: '/api/collections/{id}/images/{image_id}',
  tags: ['Collections'],
  summary: 'Remove an image from a collection (the image itself stays)',
  request: { params: MembershipParamSchema },
  responses: { 200: jsonContent(RemovedMembershipSchema, 'Removed'), ...errorResponses },
});

export const registerCollectionImages: RegisterRoutes = (app, deps) => {
  app.openapi(listRoute, async (c) => {
    const input = { collectionId: c.req.valid('param').id, ...pageRequest(c.req.valid('query')) };
    return c.json(await listCollectionImages({ deps, ctx: requestContext(c.var), input }), 200);
  });
  app.openapi(addRoute, async (c) => {
    const input = { collectionId: c.req.valid('param').id, imageId: c.req.valid('json').image_id };
    const membership = await addImageToCollection({ deps, ctx: requestContext(c.var), input });
    return membership.added ? c.json(membership, 201) : c.json(membership, 200);
  });
  app.openapi(removeRoute, async (c) => {
    const params = c.req.valid('param');
    const input = { collectionId: params.id, imageId: params.image_id };
    return c.json(await removeImageFromCollection({ deps, ctx: requestContext(c.var), input }), 200);
  });
};
