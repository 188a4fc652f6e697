export interface EnqueueOptions {
  /** Jobs with the same id are one job: enqueueing it again while it exists does nothing. */
  id: string;
  /** Not before this time (delayed retries). */
  runAt?: Date;
  /**
   * A job of this id that failed for good is run again (a sweeper putting lost work back). Without it,
   * enqueueing an id whose job failed does nothing: a failed job keeps its id until it expires.
   */
  reviveFailed?: boolean;
  /**
   * Text metadata carried beside the payload, never in it (the W3C trace context of whoever enqueued): a worker of
   * an older version, which checks payloads strictly, still runs the job. A job keeps the headers of the enqueue that created it.
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * Lower runs first; FIFO among equal priorities (default 0). A whole number; how far apart two priorities are means
   * nothing, only their order (an adapter may cap very large ones, which then run FIFO among themselves after the rest).
   * Kept by a job through its retries. Fairness between callers (generation ranks) rides on it.
   */
  priority?: number;
}

/** One job of `JobQueue.enqueueAll`. */
export interface NewJob {
  payload: Record<string, unknown>;
  options: EnqueueOptions;
}

/** Which run of its job a handler is: handlers that throw are run again, with backoff, a bounded number of times. */
export interface JobRun {
  /** 1 for the first run. */
  attempt: number;
  /** No retry follows if this run throws: the job fails until something queues it again. */
  lastAttempt: boolean;
  /** The headers the job was enqueued with; absent when it had none. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Aborted once this process stops taking jobs (shutdown). A handler that has not begun its work by then (it was
   * waiting its turn) may throw `JobHandedBack`: the job goes back to the queue as it was, for this process after a
   * restart or for another one now, and the run is not counted as a failure. Absent where nothing stops (a direct call).
   */
  closing?: AbortSignal;
}

/** Thrown by a handler, on `JobRun.closing`, for a job it has not begun: the queue takes it back unchanged. */
export class JobHandedBack extends Error {
  constructor(message = 'the worker is stopping and had not begun this job') {
    super(message);
    this.name = 'JobHandedBack';
  }
}

/** One queue's backlog, read without changing anything (for metrics). */
export interface QueueStats {
  queue: string;
  /** Jobs due to run that no worker is running: delayed jobs count once their time has come. */
  waiting: number;
  /** Seconds, by the queue's clock, since the longest-waiting of them became due; 0 when none waits. */
  oldestWaitSeconds: number;
}

/** Throws only for failures worth a retry (the service's own infrastructure); a job's own failure is recorded and returns. */
export type JobHandler = (payload: Record<string, unknown>, run: JobRun) => Promise<void>;

/**
 * Background work with bounded concurrency that survives restarts. A handler must be idempotent:
 * after a crash a job that was running runs again.
 */
export interface JobQueue {
  enqueue(queue: string, payload: Record<string, unknown>, options: EnqueueOptions): Promise<void>;
  /** Enqueues each job as `enqueue` would, in a few round trips instead of one per job (a batch's prompts). */
  enqueueAll(queue: string, jobs: readonly NewJob[]): Promise<void>;
  /** Starts taking jobs of `queue`, at most `concurrency` at a time. */
  process(queue: string, concurrency: number, handler: JobHandler): void;
  /** The backlog of each of these queues (whether or not this process takes their jobs), in their order. */
  stats(queues: readonly string[]): Promise<QueueStats[]>;
  /** Resolves once no job of this process is running or waiting to run now; for tests and shutdown. */
  drain(): Promise<void>;
  /**
   * Stops taking jobs, aborts every running job's `closing` signal, and waits for the running ones (an adapter may
   * hand back to the queue, after a grace period, those that outlast it).
   */
  close(): Promise<void>;
}
