import { z } from '@hono/zod-openapi';
import { ImageSchema, PaginationSchema } from '../../schemas.js';

export const CollectionSchema = z
  .object({
    id: z.string().openapi({ example: 'coll_01jc4x1q7z3m9r4f2k8t6v5w0y' }),
    name: z.string(),
    description: z.string(),
    user_id: z.string(),
    image_count: z.number().int().openapi({ description: 'Live (not deleted) images in the collection' }),
    cover_image_url: z
      .string()
      .nullable()
      .openapi({ description: 'Public URL of the image added last, for a cover thumbnail; null when the collection is empty' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Collection');

export const CreateCollectionSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters').openapi({ example: 'Moodboard' }),
    description: z.string().trim().max(1000, 'description must be at most 1000 characters').optional().openapi({ example: 'Ideas for the spring campaign' }),
  })
  .openapi('CreateCollection');

export const AddImageSchema = z.strictObject({ image_id: z.string().min(1) }).openapi('AddImageToCollection');

export const CollectionIdParamSchema = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'coll_01jc4x1q7z3m9r4f2k8t6v5w0y' }),
});

export const MembershipParamSchema = CollectionIdParamSchema.extend({
  image_id: z.string().openapi({ param: { name: 'image_id', in: 'path' } }),
});

export const CollectionListSchema = z.object({ collections: z.array(CollectionSchema), pagination: PaginationSchema }).openapi('CollectionList');

export const CollectionImagesSchema = z
  .object({ collection_id: z.string(), images: z.array(ImageSchema), pagination: PaginationSchema })
  .openapi('CollectionImages');

export const MembershipSchema = z.object({ collection_id: z.string(), image_id: z.string(), added: z.boolean() }).openapi('CollectionMembership');

export const RemovedMembershipSchema = z.object({ collection_id: z.string(), image_id: z.string(), removed: z.literal(true) });
export const DeletedCollectionSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedCollection');
