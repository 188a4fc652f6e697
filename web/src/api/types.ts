/** The API's shapes as the app reads them; /openapi.json is the full reference. */

export type AuthMode = 'api_key' | 'ip_allowlist';

export interface AppConfig {
  auth_mode: AuthMode;
  version: string;
}

export interface Pagination {
  limit: number;
  offset: number;
  total: number;
  has_more: boolean;
  /** Lists that page by cursor say where the next page starts; null or absent on the last page. */
  next_cursor?: string | null;
}

export interface ImageParameters {
  width?: number | string;
  height?: number | string;
  seed?: number | string;
  negative_prompt?: number | string;
  steps?: number | string;
  guidance?: number | string;
  /** Recorded for a generation from images or with output settings. */
  strength?: number | string;
  quality?: number | string;
  background?: number | string;
  output_format?: number | string;
  output_compression?: number | string;
  mask_image_id?: number | string;
}

export type ImageKind = 'generated' | 'upload';

export interface Image {
  id: string;
  prompt: string;
  model: string;
  r2_key: string;
  r2_url: string;
  width: number;
  height: number;
  created_at: string;
  cost: number;
  template_id: string | null;
  parameters: ImageParameters;
  metadata: Record<string, unknown> | null;
  /**
   * Made by a model, or uploaded (POST /api/uploads). Optional, as is the lineage below: a server from
   * before "images in" leaves them out, and its images are all generated ones with no parents.
   */
  kind?: ImageKind;
  /** The images this one was made from (the first was the one edited); empty for a text-only generation. */
  source_image_ids?: string[];
}

/** GET /api/images/{id}: one image, with the images made from it. */
export interface ImageDetail extends Image {
  derived_image_ids?: string[];
}

export type OutputFormat = 'png' | 'jpeg' | 'webp';
export type OutputQuality = 'low' | 'medium' | 'high' | 'auto';
export type OutputBackground = 'transparent' | 'opaque' | 'auto';

/** What a model accepts besides the prompt; absent = text only. */
export interface ModelInputs {
  max_images: number;
  /** Takes a mask: fully transparent pixels mark the area to change. */
  mask: boolean;
  /** Takes a strength, 0 (keep the input) to 1 (ignore it). */
  strength: boolean;
}

export interface ModelOutputs {
  formats: string[];
  transparent_background: boolean;
  quality: string[];
  partial_images: boolean;
}

export type GenerationParameter = 'width' | 'height' | 'seed' | 'negative_prompt' | 'steps' | 'guidance';

export interface Model {
  id: string;
  name: string;
  provider: string;
  description: string;
  cost_per_image: number;
  available: boolean;
  unavailable_reason?: string;
  lifecycle: 'active' | 'deprecated' | 'shut_down';
  /** Set for a deprecated or shut-down model: since when, and what to use instead. */
  warning?: string;
  speed: 'fast' | 'medium' | 'slow';
  quality: 'draft' | 'standard' | 'high';
  typical_seconds: number;
  default_width: number;
  default_height: number;
  min_size: number;
  max_width: number;
  max_height: number;
  sizes?: readonly string[];
  default_steps?: number;
  max_steps?: number;
  parameters: readonly GenerationParameter[];
  /** Absent from a server before "images in": such a model takes text only. */
  inputs?: ModelInputs;
  outputs?: ModelOutputs;
}

export interface Template {
  id: string;
  name: string;
  model: string;
  default_prompt: string;
  parameters: ImageParameters;
  user_id: string;
  is_sample: boolean;
  created_at: string;
  updated_at: string;
}

export interface Collection {
  id: string;
  name: string;
  description: string;
  image_count: number;
  cover_image_url: string | null;
  created_at: string;
  updated_at: string;
}

export type BatchStatus = 'queued' | 'processing' | 'completed' | 'cancelled';

export interface Batch {
  id: string;
  name: string;
  model: string;
  status: BatchStatus;
  total_prompts: number;
  completed_count: number;
  failed_count: number;
  webhook_url: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface BatchImage {
  id: string;
  prompt: string;
  r2_url: string;
}

export interface WebhookAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookDelivery {
  id: string;
  event: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed' | 'stopped';
  attempt_count: number;
  next_attempt_at: string | null;
  attempts: WebhookAttempt[];
}

export interface BatchDetail extends Batch {
  images: BatchImage[];
  items: { index: number; prompt: string; status: 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled'; image: BatchImage | null; error: string | null }[];
  webhook: { deliveries: WebhookDelivery[] };
}

export type Permission = 'read' | 'generate' | 'manage';
export type Plan = 'standard' | 'pro' | 'enterprise';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  user_id: string;
  permissions: Permission[];
  plan: Plan;
  rate_limit: number;
  is_admin: boolean;
  status: 'active' | 'revoked' | 'expired';
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  /** USD per UTC day and month; null for none. */
  daily_budget_usd: number | null;
  monthly_budget_usd: number | null;
  spend: { today_usd: number; this_month_usd: number };
}

/** PATCH /api/keys/{id}: only the fields to change; null clears a budget or the expiry. */
export interface ApiKeyChanges {
  name?: string;
  daily_budget_usd?: number | null;
  monthly_budget_usd?: number | null;
  plan?: Plan;
  rate_limit?: number;
  expires_at?: string | null;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface UsageReport {
  from: string | null;
  to: string | null;
  total_images: number;
  active_images: number;
  deleted_images: number;
  total_cost: number;
  by_model: { model: string; images: number; cost: number }[];
  by_day: { date: string; images: number; cost: number }[];
  by_day_and_model: DayModelUsage[];
}

export interface DayModelUsage {
  date: string;
  model: string;
  images: number;
  cost: number;
}

export interface Deleted {
  id: string;
  deleted: true;
}
