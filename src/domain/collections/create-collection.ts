import type { VerbArgs } from '../context.js';
import { toCollectionRecord, type CollectionRecord } from './collection-record.js';

export interface CreateCollectionInput {
  name: string;
  description?: string;
}

export async function createCollection({ deps, ctx, input }: VerbArgs<CreateCollectionInput>): Promise<CollectionRecord> {
  const now = deps.clock.now().toISOString();
  const row = {
    id: deps.ids.newId('coll'),
    user_id: ctx.userId,
    name: input.name,
    description: input.description ?? '',
    created_at: now,
    updated_at: now,
  };
  await deps.db.collections.insert(row);
  return toCollectionRecord({ ...row, image_count: 0, cover_key: null }, deps.blobs);
}
