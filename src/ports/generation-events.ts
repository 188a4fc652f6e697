/**
 * What happens to a generation, as its watchers see it: the API process a caller waits on, an SSE stream, a cancel
 * reaching the worker that runs it. Events are hints that something changed, delivered at most once and only to
 * watchers subscribed at the time: the generation's row is the truth, read again by whoever needs certainty.
 */
export type GenerationEventType =
  | 'generation.queued'
  | 'generation.started'
  | 'generation.progress'
  | 'generation.partial_image'
  | 'generation.completed'
  | 'generation.failed'
  | 'generation.cancelled'
  /** For the worker running it: stop the provider call (never sent to callers' streams). */
  | 'generation.cancel_requested'
  /** The service failed under it (database, storage) and its job runs again: a caller waiting for it stops waiting. */
  | 'generation.retrying';

export interface GenerationEvent {
  type: GenerationEventType;
  generation_id: string;
  data: Record<string, unknown>;
}

export type GenerationEventListener = (event: GenerationEvent) => void;

export interface GenerationEvents {
  /** Best effort: a failure to publish is logged by the adapter and never thrown (watchers also read the row). */
  publish(event: GenerationEvent): Promise<void>;
  /** Calls `listener` with each event of this generation published from now on, in any process; resolves once listening. */
  subscribe(generationId: string, listener: GenerationEventListener): Promise<() => void>;
  /**
   * The latest `generation.partial_image` published for a generation that has not ended, kept for a watcher that
   * arrives after it (a page opened once the model had streamed its partials); undefined once the generation ended,
   * or where the adapter lost it (best effort, as publishing is).
   */
  latestPartial(generationId: string): Promise<GenerationEvent | undefined>;
  close(): Promise<void>;
}
