import type { Page, PageRequest } from './common.js';
import type { ImageRow } from './images.js';

export interface CollectionRow {
  id: string;
  user_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface CollectionWithCount extends CollectionRow {
  image_count: number;
  /** The object key of the live image added last (the collection's cover), or null when it has none. */
  cover_key: string | null;
}

export interface CollectionRepository {
  insert(row: CollectionRow): Promise<void>;
  find(userId: string, id: string): Promise<CollectionWithCount | undefined>;
  list(userId: string, page: PageRequest): Promise<Page<CollectionWithCount>>;
  /** Removes the collection and its memberships, never the images. */
  delete(userId: string, id: string): Promise<boolean>;
  /** Adds a membership; false when it was already there. */
  addImage(collectionId: string, imageId: string, at: string): Promise<boolean>;
  removeImage(collectionId: string, imageId: string): Promise<boolean>;
  /** Live images in the collection, most recently added first. */
  listImages(userId: string, collectionId: string, page: PageRequest): Promise<Page<ImageRow>>;
}
