import type { AppConfig } from '../app.js';
import type { BatchSettings } from '../domain/context.js';
import type { ClaimLease } from '../http/middleware/idempotency.js';

/** The peer address a test names for a request (the real server reads its socket; a Worker, CF-Connecting-IP). */
export const TEST_CLIENT_ADDRESS_HEADER = 'X-Test-Client-Address';

/** The harness clock's time (ms since the epoch), sent with every request to a service in another process. */
export const HARNESS_CLOCK_HEADER = 'X-Harness-Clock';

/** `POST /__harness/reset` of the wrangler-dev test worker: empty storage, then a service built with these. */
export interface HarnessReset {
  clock: number;
  app?: Partial<AppConfig>;
  batch: Partial<BatchSettings>;
  idempotencyLease?: ClaimLease;
  /** Providers by id, each called through the test process's provider bridge at this URL. */
  providers?: { ids: string[]; url: string };
  /** False: Queue messages are acknowledged unrun, so jobs stay queued (as a Node harness without workers)... */
  workers: boolean;
  /** ...except generations and their thumbnails, which run unless this is false too (HarnessOptions.generationJobs). */
  generationJobs: boolean;
}
