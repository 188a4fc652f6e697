/**
 * How a queue runs again a job whose handler threw. Handlers record the failures that belong to the job
 * (a refused prompt, an exhausted budget) and throw only when the service itself failed under them (the
 * database, Redis or the blob store went away), so every throw is worth another try once that is back.
 */
export interface JobRetryPolicy {
  /** Runs in all, the first included; past them the job stays failed until it is queued again (the batch sweeper does). */
  attempts: number;
  /** Wait before the first retry; each later one waits twice as long as the one before. */
  backoffMs: number;
}

/** 2, 4, 8, 16, 32 s between the six runs: a minute of outage is ridden out before the sweeper has to step in. */
export const DEFAULT_JOB_RETRY: JobRetryPolicy = { attempts: 6, backoffMs: 2_000 };

/** The wait before run `attempt + 1`, after `attempt` runs failed (exponential, as BullMQ's own backoff). */
export const retryDelayMs = (policy: JobRetryPolicy, attempt: number): number => policy.backoffMs * 2 ** Math.max(0, attempt - 1);

export function checkRetryPolicy(policy: JobRetryPolicy): JobRetryPolicy {
  if (!(Number.isInteger(policy.attempts) && policy.attempts >= 1 && policy.backoffMs >= 0)) {
    throw new Error(`a job retry policy needs at least one attempt and a backoff of 0 ms or more (got ${policy.attempts} attempts, ${policy.backoffMs} ms)`);
  }
  return policy;
}
