import type { CloudflareJobQueue } from '../../src/adapters/queue/cloudflare-queue.js';
import {
  MAX_BATCH_MESSAGES,
  type JobMessage,
  type MessageBatch,
  type QueueMessage,
  type QueueProducer,
  type QueueSendRequest,
} from '../../src/adapters/queue/queue-messages.js';
import type { Clock } from '../../src/ports/clock.js';

/** A message in the fake Queue: sent, then delivered until a consumer acks it. */
export interface Envelope {
  id: string;
  body: JobMessage;
  /** The delay it was sent or last retried with. */
  delaySeconds: number | undefined;
  /** Clock time from which it may be delivered. */
  dueAt: number;
  /** Deliveries so far. */
  attempts: number;
}

export type Outcome =
  { jobId: string; outcome: 'ack' } | { jobId: string; outcome: 'retry'; delaySeconds: number | undefined } | { jobId: string; outcome: 'unsettled' };

/**
 * Cloudflare Queues in memory, on the test's clock: a producer that records what it is sent (refusing more than
 * 100 messages a call, as Queues do), and deliveries of recorded messages as batches to a consumer, applying its
 * ack and retry as Queues would. Nothing is delivered unless a test (or `pump`) says so.
 */
export function createFakeQueue(clock: Clock, name = 'imagegate-jobs') {
  let sequence = 0;
  let failSends = 0;
  const pending: Envelope[] = [];
  /** Sizes of the sendBatch calls, in order. */
  const sendCalls: number[] = [];
  const outcomes: Outcome[] = [];
  const inFlight = new Map<Promise<void>, () => boolean>();

  const producer: QueueProducer = {
    async sendBatch(messages: Iterable<QueueSendRequest<JobMessage>>) {
      const list = [...messages];
      if (list.length > MAX_BATCH_MESSAGES) throw new Error(`sendBatch takes at most ${MAX_BATCH_MESSAGES} messages, got ${list.length}`);
      if (failSends > 0) {
        failSends -= 1;
        throw new Error('the Queue is unavailable');
      }
      sendCalls.push(list.length);
      for (const { body, delaySeconds } of list) {
        sequence += 1;
        pending.push({ id: `message-${sequence}`, body: { ...body }, delaySeconds, dueAt: clock.now().getTime() + (delaySeconds ?? 0) * 1000, attempts: 0 });
      }
    },
  };

  /** Takes out of the Queue the messages due now (at most `max`), as a delivery would. */
  const take = (max = MAX_BATCH_MESSAGES): Envelope[] => {
    const due = pending.filter((envelope) => envelope.dueAt <= clock.now().getTime()).slice(0, max);
    for (const envelope of due) pending.splice(pending.indexOf(envelope), 1);
    return due;
  };

  /** Delivers these messages as one batch, then puts back those the consumer retried, or left unsettled while it was `crashed`. */
  async function deliver(consumer: CloudflareJobQueue, envelopes: readonly Envelope[], crashed: () => boolean = () => false): Promise<void> {
    const settled = new Map<Envelope, Outcome>();
    const messages = envelopes.map((envelope): QueueMessage<JobMessage> => {
      const settle = (outcome: Outcome) => {
        if (!settled.has(envelope)) settled.set(envelope, outcome);
      };
      return {
        id: envelope.id,
        body: envelope.body,
        attempts: envelope.attempts + 1,
        ack: () => settle({ jobId: envelope.body.id, outcome: 'ack' }),
        retry: (options) => settle({ jobId: envelope.body.id, outcome: 'retry', delaySeconds: options?.delaySeconds }),
      };
    });
    const batch: MessageBatch<JobMessage> = { queue: name, messages };
    const delivery = (async () => {
      await consumer.consume(batch);
      if (crashed()) return;
      for (const envelope of envelopes) {
        const outcome = settled.get(envelope) ?? { jobId: envelope.body.id, outcome: 'unsettled' };
        outcomes.push(outcome);
        if (outcome.outcome !== 'retry') continue;
        const delaySeconds = outcome.delaySeconds;
        pending.push({ ...envelope, attempts: envelope.attempts + 1, delaySeconds, dueAt: clock.now().getTime() + (delaySeconds ?? 0) * 1000 });
      }
    })();
    // Counted as busy until what it retried is back in the Queue, so "nothing due, nothing busy" means idle.
    inFlight.set(delivery, crashed);
    try {
      await delivery;
    } finally {
      inFlight.delete(delivery);
    }
  }

  return {
    producer,
    pending,
    sendCalls,
    outcomes,
    take,
    deliver,
    /** Delivers what is due now as one batch. */
    deliverDue: (consumer: CloudflareJobQueue) => deliver(consumer, take()),
    /** The next `count` sendBatch calls fail. */
    failNextSends: (count: number) => {
      failSends = count;
    },
    /** Puts back, as delivered once more, messages whose consumer died before settling them (Queues redeliver them). */
    redeliver: (envelopes: readonly Envelope[]) => {
      for (const envelope of envelopes) pending.push({ ...envelope, attempts: envelope.attempts + 1, dueAt: clock.now().getTime() });
    },
    hasDue: () => pending.some((envelope) => envelope.dueAt <= clock.now().getTime()),
    /** A delivery is under way to a consumer that has not crashed. */
    busy: () => [...inFlight.values()].some((crashed) => !crashed()),
  };
}

export type FakeQueue = ReturnType<typeof createFakeQueue>;
