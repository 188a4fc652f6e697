import { z } from 'zod';
import type { EnqueueOptions, JobQueue, JobRun } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';
import { contextFromCarrier, currentTraceCarrier, inSpan } from '../ports/tracer.js';

/**
 * Every kind of background job and the shape of its payload. A payload is checked when it is read back,
 * so a job written by another version (or by hand) fails loudly instead of running on bad data.
 */
export const JOB_KINDS = {
  /** One generation (POST /api/generate, /v1, MCP, the CLI): the row says what to run. */
  generation: z.strictObject({ generationId: z.string().min(1) }),
  /** One prompt of a batch. */
  'batch-item': z.strictObject({ batchId: z.string().min(1), idx: z.number().int().min(0) }),
  /** The gallery's thumbnails of a recorded image, made after its answer went out (see image-thumbnails). */
  thumbnails: z.strictObject({ imageId: z.string().min(1), userId: z.string().min(1) }),
  /** One attempt at delivering a webhook event from the outbox. */
  webhook: z.strictObject({ deliveryId: z.string().min(1) }),
} as const;

export type JobKind = keyof typeof JOB_KINDS;
export type JobPayload<K extends JobKind> = z.infer<(typeof JOB_KINDS)[K]>;

/** Job ids are `<kind>-<parts>`: stable for deduplication, and free of `:` (BullMQ forbids it). */
export const jobId = (kind: JobKind, ...parts: readonly (string | number)[]): string => [kind, ...parts].join('-');

/** Attributes of a job's spans (OpenTelemetry's messaging conventions: the kind is the destination). */
const jobAttributes = (kind: JobKind, operation: 'send' | 'process') => ({
  'messaging.system': 'imagegate',
  'messaging.operation.type': operation,
  'messaging.destination.name': kind,
});

/**
 * Queues a job in a producer span whose W3C trace context travels in the job's headers: the worker that runs it,
 * in this process or another, continues the trace of whatever queued it (a request, another job).
 */
export async function enqueueJob<K extends JobKind>(queue: JobQueue, kind: K, payload: JobPayload<K>, options: EnqueueOptions): Promise<void> {
  const checked = JOB_KINDS[kind].parse(payload);
  await inSpan(`send ${kind}`, { kind: 'producer', attributes: { ...jobAttributes(kind, 'send'), 'messaging.message.id': options.id } }, async () => {
    const headers = currentTraceCarrier();
    await queue.enqueue(kind, checked, Object.keys(headers).length === 0 ? options : { ...options, headers: { ...options.headers, ...headers } });
  });
}

/** Queues several jobs of one kind in one producer span and a few round trips, each as `enqueueJob` would. */
export async function enqueueJobs<K extends JobKind>(
  queue: JobQueue,
  kind: K,
  jobs: readonly { payload: JobPayload<K>; options: EnqueueOptions }[],
): Promise<void> {
  const checked = jobs.map(({ payload, options }) => ({ payload: JOB_KINDS[kind].parse(payload), options }));
  await inSpan(`send ${kind}`, { kind: 'producer', attributes: { ...jobAttributes(kind, 'send'), 'messaging.batch.message_count': jobs.length } }, async () => {
    const headers = currentTraceCarrier();
    const untraced = Object.keys(headers).length === 0;
    await queue.enqueueAll(
      kind,
      untraced ? checked : checked.map(({ payload, options }) => ({ payload, options: { ...options, headers: { ...options.headers, ...headers } } })),
    );
  });
}

/** Starts a typed worker; a payload that does not match its kind is logged and dropped, never retried. */
export function processJobs<K extends JobKind>(
  queue: JobQueue,
  kind: K,
  options: { concurrency: number; logger: Logger },
  handler: (payload: JobPayload<K>, run: JobRun) => Promise<void>,
): void {
  queue.process(kind, options.concurrency, (raw, run) =>
    // A consumer span continuing the trace of the enqueue, never whatever was active where the queue polled.
    inSpan(
      `process ${kind}`,
      { kind: 'consumer', parent: contextFromCarrier(run.headers), attributes: { ...jobAttributes(kind, 'process'), 'imagegate.job.attempt': run.attempt } },
      async () => {
        const parsed = JOB_KINDS[kind].safeParse(raw);
        if (!parsed.success) {
          options.logger.error({ kind, payload: raw, problem: parsed.error.issues[0]?.message }, 'dropped a job whose payload does not match its kind');
          return;
        }
        await handler(parsed.data as JobPayload<K>, run);
      },
    ),
  );
}
