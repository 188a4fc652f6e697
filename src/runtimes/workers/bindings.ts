import type { D1Binding } from '../../adapters/db/d1-unit-of-work.js';
import type { R2BucketBinding } from '../../adapters/blob/r2-blob-store.js';
import type { GenerationEventHubs } from '../../adapters/events/durable-object-generation-events.js';
import type { RateLimitCounters } from '../../adapters/rate-limit/durable-object-rate-limiter.js';
import type { AiBinding } from '../../adapters/providers/workers-ai/workers-ai-binding-provider.js';
import type { QueueProducer } from '../../adapters/queue/queue-messages.js';

/** What a static-assets binding answers: the built web app (dist/web) and the API reference. */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

/**
 * The bindings wrangler.jsonc declares, plus the settings, which are wrangler vars and secrets under the same names
 * as Node's environment variables (ADMIN_API_KEY, AUTH_MODE, PUBLIC_BASE_URL, the providers' keys...).
 */
export interface WorkerBindings {
  DB: D1Binding;
  BLOBS: R2BucketBinding;
  /** Batch prompts and webhook deliveries, pushed back to this Worker's `queue()` handler. */
  JOBS: QueueProducer;
  RATE_LIMITS: RateLimitCounters;
  /**
   * A Durable Object per generation carrying its events between isolates. Absent from a wrangler.jsonc written before
   * it existed: events then stay within an isolate, and watchers elsewhere read the generation's row every 0.5 s.
   */
  GENERATION_EVENTS?: GenerationEventHubs;
  /** Workers AI: the `@cf/*` models without a token. Absent where the Worker declares no AI binding (local runs). */
  AI?: AiBinding;
  ASSETS?: AssetsBinding;
}

/** The settings among the bindings: every string-valued one, as parseConfig reads Node's environment. */
export function settingsOf(env: WorkerBindings): Record<string, string | undefined> {
  const settings: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === 'string') settings[name] = value;
  return settings;
}
