/** Table shapes as stored. Portable types only (text, integer, double precision) so SQLite, PostgreSQL and D1 share one migration set. */
export interface ImagesTable {
  id: string;
  user_id: string;
  prompt: string;
  model: string;
  r2_key: string;
  width: number;
  height: number;
  cost: number;
  /** 0 or 1: SQLite has no boolean type. */
  is_deleted: number;
  created_at: string;
  deleted_at: string | null;
  template_id: string | null;
  /** JSON text. */
  metadata: string | null;
  /** JSON text. */
  parameters: string;
  /** The API key that made the image (migration 008); null before that and in the IP allow-list mode. */
  key_id: string | null;
  /** foldForSearch(prompt), what SQLite's prompt search compares (migration 010); null only before it ran. */
  prompt_folded: string | null;
  /** `generated` or `upload` (migration 011). */
  kind: string;
  /** JSON array of image ids, or null for none (migration 011). */
  source_image_ids: string | null;
  /** 0 or 1: its WebP thumbnails are stored (migration 013); 0 for images stored before. */
  has_thumbnails: number;
  /**
   * `input` or `mask` for an upload a list without kind leaves out; null for a file uploaded on purpose and for
   * generated images (migration 019), so "listed" is `upload_role is null`.
   */
  upload_role: string | null;
  /** SHA-256 (hex) of an upload's bytes as sent (`kept:<hex>` under UPLOAD_METADATA=keep); null for generated images and older uploads (migration 019). */
  content_hash: string | null;
}

/** One lineage edge per row: `image_id` was made from `source_id` (its `position`-th input). */
export interface ImageSourcesTable {
  image_id: string;
  position: number;
  source_id: string;
  user_id: string;
}

export interface CollectionsTable {
  id: string;
  user_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface CollectionImagesTable {
  collection_id: string;
  image_id: string;
  added_at: string;
}

export interface TemplatesTable {
  id: string;
  user_id: string;
  name: string;
  model: string;
  default_prompt: string;
  /** JSON text. */
  parameters: string;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** First characters of the secret, for people to recognise a key; never enough to use it. */
  prefix: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  hash: string;
  /** JSON array of permissions. */
  permissions: string;
  plan: string;
  rate_limit: number | null;
  is_admin: number;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  /** Optional spend limits in USD (migration 008). */
  daily_budget_usd: number | null;
  monthly_budget_usd: number | null;
  /** The keys that created this one, root first, as `/key_a/key_b/` (migration 015); null for none. */
  creator_path: string | null;
}

export interface BatchesTable {
  id: string;
  user_id: string;
  name: string;
  model: string;
  template_id: string | null;
  /** JSON text. */
  parameters: string;
  status: string;
  total_prompts: number;
  completed_count: number;
  failed_count: number;
  webhook_url: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** The key that created the batch: its items are charged to that key's budgets. */
  key_id: string | null;
}

export interface BatchItemsTable {
  batch_id: string;
  idx: number;
  prompt: string;
  image_id: string;
  status: string;
  error: string | null;
  updated_at: string;
  /** The generation that runs it; null for a prompt of a batch accepted before batches were generations, until it runs. */
  generation_id: string | null;
}

export interface GenerationsTable {
  id: string;
  user_id: string;
  key_id: string | null;
  status: string;
  model: string;
  prompt: string;
  /** JSON of the request as accepted (its seed fixed), planned again by whichever worker runs it. */
  request: string;
  image_id: string;
  /** The batch and prompt this generation runs, when it is one of a batch's: its ending settles that prompt too. */
  batch_id: string | null;
  batch_idx: number | null;
  /** The run that holds it, until when (renewed while it runs); a run after that time may take it over. */
  run_token: string | null;
  claimed_until: string | null;
  webhook_url: string | null;
  /** JSON array of the events sent to webhook_url. */
  webhook_events: string | null;
  deadline_at: string | null;
  /** JSON `{ status, error, code, details }` once failed or cancelled. */
  error: string | null;
  progress: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  cancel_requested_at: string | null;
  /** Its round in the fair queue, given at insert (migration 017; 0 for rows from before). */
  queue_rank: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  batch_id: string | null;
  generation_id: string | null;
  event: string;
  url: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface JobsTable {
  id: string;
  queue: string;
  payload: string;
  status: string;
  attempts: number;
  run_at: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The claim holding a running job: a fresh token per claim, so a worker that lost its lease cannot finish another's. */
  locked_by: string | null;
  /** ISO time until which the claim holds; a running job past it may be claimed again. */
  locked_until: string | null;
  /** JSON object of text headers carried beside the payload (trace context), or null (migration 012). */
  headers: string | null;
  /** Claims take lower first, then the earliest due (migration 017). */
  priority: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** Live (not soft-deleted) images per user: an unfiltered list's `total` without COUNT(*). */
export interface ImageCountersTable {
  user_id: string;
  live_images: number;
  /** Raised by every write to the user's images (migration 014). */
  version: number;
}

/** Images and cost per user, UTC day and model; soft-deleted images stay counted (they were paid for). */
export interface UsageDailyTable {
  user_id: string;
  /** `YYYY-MM-DD`, the first ten characters of `created_at`. */
  day: string;
  model: string;
  images: number;
  deleted_images: number;
  cost: number;
}

/** Idempotency keys per user (migration 007): the first request's answer, replayed to retries for 24 hours. */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  fingerprint: string;
  /** `running` or `done`. */
  state: string;
  response_status: number | null;
  /** JSON object text. */
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

/** The charge ledger (migration 009); see ChargeRow in src/ports/db/charges.ts. */
export interface ChargesTable {
  id: string;
  user_id: string;
  key_id: string | null;
  image_id: string;
  model: string;
  provider: string;
  provider_job_id: string | null;
  /** JSON text: the provider job and output file, kept so a restarted worker resumes rather than pays again. */
  journal: string | null;
  estimated_usd: number;
  cost_usd: number;
  outcome: string;
  error: string | null;
  created_at: string;
  settled_at: string | null;
}

export interface DatabaseSchema {
  charges: ChargesTable;
  idempotency_keys: IdempotencyKeysTable;
  image_counters: ImageCountersTable;
  usage_daily: UsageDailyTable;
  api_keys: ApiKeysTable;
  batches: BatchesTable;
  batch_items: BatchItemsTable;
  generations: GenerationsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  jobs: JobsTable;
  settings: SettingsTable;
  images: ImagesTable;
  collections: CollectionsTable;
  collection_images: CollectionImagesTable;
  image_sources: ImageSourcesTable;
  templates: TemplatesTable;
}
