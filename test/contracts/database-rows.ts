import type {
  ApiKeyRow,
  BatchItemRow,
  BatchRow,
  DeliveryFactory,
  NewGenerationRow,
  ImageRow,
  TemplateRow,
  WebhookDeliveryRow,
} from '../../src/ports/database.js';

/** Rows for the Database contract suites, each with fixed ISO timestamps so reads can be compared exactly. */
export const image = (over: Partial<ImageRow>): ImageRow => ({
  id: 'img_1',
  user_id: 'alice',
  prompt: 'a cat',
  model: 'local/procedural',
  r2_key: 'generated/img_1.png',
  width: 64,
  height: 64,
  cost: 0.25,
  is_deleted: false,
  created_at: '2026-11-01T10:00:00.000Z',
  deleted_at: null,
  template_id: null,
  metadata: { tag: 'x', nested: { n: 1 } },
  parameters: { width: 64, height: 64, seed: 3 },
  kind: 'generated',
  source_image_ids: [],
  has_thumbnails: false,
  ...over,
});

export const template = (over: Partial<TemplateRow>): TemplateRow => ({
  id: 'tmpl_1',
  user_id: 'alice',
  name: 'mine',
  model: 'local/procedural',
  default_prompt: 'a dog',
  parameters: { steps: 2 },
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

export const apiKey = (over: Partial<ApiKeyRow>): ApiKeyRow => ({
  id: 'key_1',
  user_id: 'alice',
  name: 'laptop',
  prefix: 'igk_abcd',
  hash: 'hash-1',
  permissions: ['generate', 'read'],
  plan: 'standard',
  rate_limit: null,
  is_admin: false,
  created_at: '2026-11-01T10:00:00.000Z',
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  ...over,
});

export const batch = (over: Partial<BatchRow>): BatchRow => ({
  id: 'batch_1',
  user_id: 'alice',
  name: 'a batch',
  model: 'local/procedural',
  template_id: null,
  parameters: { width: 64, height: 64 },
  status: 'queued',
  total_prompts: 3,
  completed_count: 0,
  failed_count: 0,
  webhook_url: 'https://hooks.example/batch',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  finished_at: null,
  ...over,
});

export const items = (batchId: string, count: number): BatchItemRow[] =>
  Array.from({ length: count }, (_, idx) => ({
    batch_id: batchId,
    idx,
    prompt: `prompt ${idx}`,
    image_id: `img_${batchId}_${idx}`,
    status: 'pending',
    error: null,
    updated_at: '2026-11-01T10:00:00.000Z',
    generation_id: null,
  }));

/** The outbox row a finished batch stores, as the domain's factory would build it (a webhook URL means one event). */
export const deliveryFor: DeliveryFactory = (row, rowItems) =>
  row.webhook_url === null
    ? undefined
    : {
        id: `msg_${row.id}`,
        batch_id: row.id,
        generation_id: null,
        event: row.status === 'cancelled' ? 'batch.cancelled' : 'batch.completed',
        url: row.webhook_url,
        payload: JSON.stringify({
          status: row.status,
          completed_count: row.completed_count,
          failed_count: row.failed_count,
          items: rowItems.map((item) => item.status),
        }),
        status: 'pending',
        attempts: 0,
        next_attempt_at: '2026-11-01T12:00:00.000Z',
        created_at: '2026-11-01T12:00:00.000Z',
        updated_at: '2026-11-01T12:00:00.000Z',
      };

export const generation = (over: Partial<NewGenerationRow>): NewGenerationRow => ({
  id: 'gen_1',
  user_id: 'alice',
  key_id: null,
  status: 'queued',
  model: 'local/procedural',
  prompt: 'a red fox',
  request: { prompt: 'a red fox' },
  image_id: 'img_gen_1',
  error: null,
  progress: null,
  created_at: '2026-11-01T10:00:00.000Z',
  started_at: null,
  finished_at: null,
  cancel_requested_at: null,
  webhook_url: 'https://example.com/hook',
  webhook_events: ['generation.started', 'generation.failed'],
  deadline_at: null,
  batch_id: null,
  batch_idx: null,
  ...over,
});

/** A generation's outbox row, as the domain builds it: one per generation and event. */
export const generationDelivery = (generationId: string, event: string): WebhookDeliveryRow => ({
  id: `whd_${generationId}_${event}`,
  batch_id: null,
  generation_id: generationId,
  event,
  url: 'https://example.com/hook',
  payload: JSON.stringify({ event, generation_id: generationId }),
  status: 'pending',
  attempts: 0,
  next_attempt_at: '2026-11-01T12:00:00.000Z',
  created_at: '2026-11-01T12:00:00.000Z',
  updated_at: '2026-11-01T12:00:00.000Z',
});
