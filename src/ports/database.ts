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
  /**
   * Which of these object keys an image record points at: any user's, soft-deleted ones included (their
   * file stays at its URL). For housekeeping only, never for a request.
   */
  existingKeys(keys: readonly string[]): Promise<Set<string>>;
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

export type BatchStatus = 'queued' | 'processing' | 'completed' | 'cancelled';
export type BatchItemStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'stopped';

export interface BatchRow {
  id: string;
  user_id: string;
  name: string;
  model: string;
  template_id: string | null;
  parameters: ImageParameters;
  status: BatchStatus;
  total_prompts: number;
  completed_count: number;
  failed_count: number;
  webhook_url: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface BatchItemRow {
  batch_id: string;
  idx: number;
  prompt: string;
  /** Owned from acceptance on, so a retried prompt overwrites its own object instead of adding one. */
  image_id: string;
  status: BatchItemStatus;
  error: string | null;
  updated_at: string;
}

export interface WebhookDeliveryRow {
  /** Also the `webhook-id` header: stable across retries. */
  id: string;
  batch_id: string;
  event: string;
  url: string;
  /** The exact JSON body, fixed when the event happened. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptRow {
  delivery_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** Builds the outbox row for a batch that just reached a final state, or none without a webhook. */
export type DeliveryFactory = (batch: BatchRow, items: readonly BatchItemRow[]) => WebhookDeliveryRow | undefined;

export interface BatchRepository {
  /** The batch and all its items, in one transaction. */
  create(batch: BatchRow, items: readonly BatchItemRow[]): Promise<void>;
  find(userId: string, id: string): Promise<BatchRow | undefined>;
  /** Any user's batch, for the worker. */
  findAny(id: string): Promise<BatchRow | undefined>;
  list(userId: string, page: PageRequest): Promise<Page<BatchRow>>;
  items(batchId: string): Promise<BatchItemRow[]>;
  /** pending -> running (and the batch queued -> processing); false when the item is not pending. */
  startItem(batchId: string, idx: number, at: string): Promise<boolean>;
  /** In one transaction: the image row, the item `succeeded`, the batch's completed_count. False if already final. */
  completeItem(batchId: string, idx: number, image: ImageRow, at: string): Promise<boolean>;
  failItem(batchId: string, idx: number, error: string, at: string): Promise<boolean>;
  /** When no item is pending or running, marks the batch completed and stores its delivery, atomically; returns that delivery. */
  finishIfDone(batchId: string, at: string, delivery: DeliveryFactory): Promise<{ finished: boolean; delivery?: WebhookDeliveryRow }>;
  /** Cancels a queued or processing batch: pending items are dropped; returns the batch and its delivery. */
  cancel(userId: string, batchId: string, at: string, delivery: DeliveryFactory): Promise<{ batch: BatchRow; delivery?: WebhookDeliveryRow } | undefined>;
  /** Batches still queued or processing. */
  openBatchIds(): Promise<string[]>;
  /** Items left pending or running by a stopped process, in batches still open. */
  unfinishedItems(): Promise<BatchItemRow[]>;
  deliveries(batchId: string): Promise<WebhookDeliveryRow[]>;
  findDelivery(id: string): Promise<WebhookDeliveryRow | undefined>;
  pendingDeliveries(): Promise<WebhookDeliveryRow[]>;
  attempts(deliveryId: string): Promise<WebhookAttemptRow[]>;
  recordAttempt(attempt: WebhookAttemptRow, next: { status: DeliveryStatus; next_attempt_at: string | null }): Promise<void>;
}

export interface SettingsRepository {
  get(key: string): Promise<string | undefined>;
  /** Stores `value` unless the key has one already; returns the value that is stored. */
  getOrSet(key: string, value: string): Promise<string>;
}

export interface Database {
  apiKeys: ApiKeyRepository;
  batches: BatchRepository;
  settings: SettingsRepository;
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
