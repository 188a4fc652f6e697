/**
 * The parts of Cloudflare Queues the pushed JobQueue uses, typed structurally (each matches the declaration of the
 * same name in @cloudflare/workers-types, whose globals would clash with Node's in this project's one tsconfig).
 */

/** What a job's message carries: which job, and which of the service's queues it belongs to (one Queue carries several). */
export interface JobMessage {
  queue: string;
  id: string;
}

export interface QueueSendRequest<Body> {
  body: Body;
  delaySeconds?: number;
}

/** A Queue producer binding (`env.JOBS`). */
export interface QueueProducer<Body = JobMessage> {
  sendBatch(messages: Iterable<QueueSendRequest<Body>>): Promise<unknown>;
}

export interface QueueMessage<Body = unknown> {
  readonly id: string;
  readonly body: Body;
  /** Deliveries of this message so far, this one included (Cloudflare counts; the job row counts runs). */
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

/** What the Worker's `queue(batch, env, ctx)` export receives. */
export interface MessageBatch<Body = unknown> {
  readonly queue: string;
  readonly messages: readonly QueueMessage<Body>[];
}

/** Queues delay a message by at most 12 h; a job due later is delayed again when its message arrives (see `consume`). */
export const MAX_DELAY_SECONDS = 43_200;

/** Messages per `sendBatch` call, Cloudflare's limit. */
export const MAX_BATCH_MESSAGES = 100;

/** Whole seconds (what Queues take), rounded up so a message never arrives before its job is due, and capped at 12 h. */
export const delaySecondsOf = (ms: number): number => Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(ms / 1000)));

export const isJobMessage = (body: unknown): body is JobMessage =>
  typeof body === 'object' && body !== null && typeof (body as Partial<JobMessage>).queue === 'string' && typeof (body as Partial<JobMessage>).id === 'string';

/**
 * Sends the messages in calls of at most 100. Returns the ids of the messages it could not send (those of the
 * call that failed and every one after it), with the error, so their jobs can be withdrawn.
 */
export async function sendAll(
  producer: QueueProducer,
  messages: readonly QueueSendRequest<JobMessage>[],
): Promise<{ unsent: string[]; error: unknown } | undefined> {
  for (let at = 0; at < messages.length; at += MAX_BATCH_MESSAGES) {
    try {
      await producer.sendBatch(messages.slice(at, at + MAX_BATCH_MESSAGES));
    } catch (error) {
      return { unsent: messages.slice(at).map((message) => message.body.id), error };
    }
  }
  return undefined;
}
