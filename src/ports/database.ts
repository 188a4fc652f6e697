import type { AnalyticsRepository } from './db/analytics.js';
import type { ApiKeyRepository } from './db/api-keys.js';
import type { ChargeRepository } from './db/charges.js';
import type { BatchRepository } from './db/batches.js';
import type { CollectionRepository } from './db/collections.js';
import type { GenerationRepository } from './db/generations.js';
import type { IdempotencyRepository } from './db/idempotency.js';
import type { ImageRepository } from './db/images.js';
import type { SettingsRepository } from './db/settings.js';
import type { TemplateRepository } from './db/templates.js';
import type { UnitOfWork } from './db/unit-of-work.js';
import type { WebhookOutboxRepository } from './db/webhook-outbox.js';

export type * from './db/analytics.js';
export type * from './db/api-keys.js';
export type * from './db/batches.js';
export type * from './db/charges.js';
export type * from './db/collections.js';
export type * from './db/common.js';
export type * from './db/generations.js';
export type * from './db/idempotency.js';
export type * from './db/images.js';
export type * from './db/settings.js';
export type * from './db/templates.js';
export type * from './db/unit-of-work.js';
export type * from './db/webhook-outbox.js';

/** The database as the domain sees it: one repository per aggregate, each scoped by user where a user owns the rows. */
export interface Database extends UnitOfWork {
  apiKeys: ApiKeyRepository;
  batches: BatchRepository;
  generations: GenerationRepository;
  webhookOutbox: WebhookOutboxRepository;
  settings: SettingsRepository;
  readonly dialect: 'sqlite' | 'postgres';
  images: ImageRepository;
  collections: CollectionRepository;
  templates: TemplateRepository;
  analytics: AnalyticsRepository;
  idempotency: IdempotencyRepository;
  /** The ledger: every provider call that may have cost money, with what it cost. */
  charges: ChargeRepository;
  /** Applies pending migrations; idempotent. Resolves with the names of those it applied (none when up to date). */
  migrate(): Promise<string[]>;
  /** Throws when the database cannot answer a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
