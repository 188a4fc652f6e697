import type { GenerationOptions } from '../domain/models/types.js';

/** The generation settings used for an image, or saved in a template. */
export type ImageParameters = GenerationOptions;

export interface ImageRow {
  id: string;
  user_id: string;
  prompt: string;
  model: string;
  r2_key: string;
  width: number;
  height: number;
  cost: number;
  is_deleted: boolean;
  created_at: string;
  deleted_at: string | null;
  template_id: string | null;
  metadata: Record<string, unknown> | null;
  parameters: ImageParameters;
}

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
}

export interface TemplateRow {
  id: string;
  user_id: string;
  name: string;
  model: string;
  default_prompt: string;
  parameters: ImageParameters;
  created_at: string;
  updated_at: string;
}

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface TimeRange {
  /** Inclusive ISO timestamp. */
  from?: string;
  /** Exclusive ISO timestamp. */
  to?: string;
}

export interface UsageBucket {
  key: string;
  images: number;
  deleted_images: number;
  cost: number;
}

export interface UsageSummary {
  images: number;
  deleted_images: number;
  cost: number;
  by_model: UsageBucket[];
  by_day: UsageBucket[];
}

/** Every read takes the caller's user id: a row of another user is invisible, never forbidden. */
export interface ImageRepository {
  insert(row: ImageRow): Promise<void>;
  /** Live (not soft-deleted) image of this user. */
  findLive(userId: string, id: string): Promise<ImageRow | undefined>;
  listLive(userId: string, page: PageRequest): Promise<Page<ImageRow>>;
  /** Marks the image deleted; false when there is no live image of this user with that id. */
  softDelete(userId: string, id: string, at: string): Promise<boolean>;
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

export interface TemplateRepository {
  insert(row: TemplateRow): Promise<void>;
  /** Upserts the pre-loaded `system` templates at start. */
  seed(rows: readonly TemplateRow[]): Promise<void>;
  /** The user's own template or a `system` one. */
  findVisible(userId: string, id: string): Promise<TemplateRow | undefined>;
  listVisible(userId: string, page: PageRequest): Promise<Page<TemplateRow>>;
  update(row: TemplateRow): Promise<void>;
  delete(userId: string, id: string): Promise<boolean>;
}

export interface AnalyticsRepository {
  /** Every image the user generated in the range, soft-deleted ones included (they were paid for). */
  usage(userId: string, range: TimeRange): Promise<UsageSummary>;
}

export type Permission = 'generate' | 'read' | 'manage';
export type Plan = 'standard' | 'pro' | 'enterprise';

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  hash: string;
  permissions: Permission[];
  plan: Plan;
  /** Requests per minute; set for enterprise keys only. */
  rate_limit: number | null;
  is_admin: boolean;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface ApiKeyRepository {
  insert(row: ApiKeyRow): Promise<void>;
  findByHash(hash: string): Promise<ApiKeyRow | undefined>;
  find(id: string): Promise<ApiKeyRow | undefined>;
  /** Keys of one user, or of every user when `userId` is undefined (operators only). */
  list(userId: string | undefined, page: PageRequest): Promise<Page<ApiKeyRow>>;
  /** Marks the key revoked; false when it does not exist for this user or is already revoked. */
  revoke(userId: string | undefined, id: string, at: string): Promise<boolean>;
  touch(id: string, at: string): Promise<void>;
  /** Inserts or replaces the row with this id (the operator's key from ADMIN_API_KEY). */
  upsert(row: ApiKeyRow): Promise<void>;
  countActive(at: string): Promise<number>;
}

export interface Database {
  apiKeys: ApiKeyRepository;
  readonly dialect: 'sqlite' | 'postgres';
  images: ImageRepository;
  collections: CollectionRepository;
  templates: TemplateRepository;
  analytics: AnalyticsRepository;
  /** Applies pending migrations; idempotent. */
  migrate(): Promise<void>;
  /** Throws when the database cannot answer a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
