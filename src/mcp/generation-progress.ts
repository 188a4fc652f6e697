import type { Deps, RequestContext } from '../domain/context.js';
import { acceptGeneration } from '../domain/generations/accept-generation.js';
import { awaitGeneration, DEFAULT_WAIT_MS } from '../domain/generations/await-generation.js';
import { imageOfGeneration, type GenerateImageInput } from '../domain/images/generate-image.js';
import type { ImageRecord } from '../domain/images/image-record.js';
import type { GenerationRow } from '../ports/database.js';
import { inSpan } from '../ports/tracer.js';
import type { ReportProgress } from './define-tool.js';

/**
 * generateImage, reporting as it goes: accepted (with the queue position), started, each progress the provider
 * reports, completed. The notifications only follow the generation: it runs the same whether they reach the client
 * or not, and its answer (the image or its error) is exactly generateImage's.
 */
export function generateWithProgress(deps: Deps, ctx: RequestContext, input: GenerateImageInput, report: ReportProgress): Promise<ImageRecord> {
  return inSpan('image.generate', {}, async () => {
    const accepted = await acceptGeneration({ deps, ctx, input });
    const follower = await follow(deps, accepted, report);
    try {
      const waited = await awaitGeneration(deps, accepted.id, { timeoutMs: DEFAULT_WAIT_MS, signal: ctx.signal });
      // Events may not reach this process (a worker elsewhere without Redis): the row it ended with says it succeeded.
      if (waited.row?.status === 'succeeded') follower.completed();
      // Sent before the answer: a client drops progress for a call it already has the answer of.
      await follower.sent();
      return await imageOfGeneration(deps, accepted, waited);
    } finally {
      follower.stop();
    }
  });
}

interface Follower {
  completed: () => void;
  /** Resolves once every notification so far was sent (or failed to be). */
  sent: () => Promise<void>;
  stop: () => void;
}

const NOT_FOLLOWED: Follower = { completed: () => undefined, sent: () => Promise.resolve(), stop: () => undefined };

/** Following is best effort: when the events cannot be listened to, the call still answers, without progress. */
async function follow(deps: Deps, accepted: GenerationRow, report: ReportProgress): Promise<Follower> {
  try {
    return await followEvents(deps, accepted, report);
  } catch (error) {
    deps.logger.warn(
      { generationId: accepted.id, err: error instanceof Error ? error.message : String(error) },
      'could not follow a generation for MCP progress',
    );
    return NOT_FOLLOWED;
  }
}

async function followEvents(deps: Deps, accepted: GenerationRow, report: ReportProgress): Promise<Follower> {
  let chain = Promise.resolve();
  let last = 0;
  let started = false;
  let finished = false;
  // In order, one at a time; progress never goes back, as MCP asks of it.
  const send = (progress: number, message: string): void => {
    if (finished) return;
    last = Math.max(last, Math.min(1, progress));
    const value = last;
    chain = chain.then(() => report({ progress: value, total: 1, message }));
  };
  const start = (): void => {
    if (started) return;
    started = true;
    send(0, 'started: the model is drawing');
  };
  const completed = (): void => {
    start();
    send(1, 'completed');
    finished = true;
  };

  const ahead = await deps.db.generations.queuedBefore(accepted);
  send(0, `queued: ${ahead === 0 ? 'next to start' : `${ahead} generation${ahead === 1 ? '' : 's'} ahead`} (${accepted.id})`);
  const unsubscribe = await deps.events.subscribe(accepted.id, (event) => {
    if (event.type === 'generation.started') start();
    if (event.type === 'generation.progress' && typeof event.data.progress === 'number') {
      start();
      send(event.data.progress, `${Math.round(event.data.progress * 100)}%`);
    }
    if (event.type === 'generation.completed') completed();
  });
  // Read after subscribing, so a start between acceptance and now is not missed.
  const now = await deps.db.generations.findAny(accepted.id).catch((error: unknown) => {
    unsubscribe();
    throw error;
  });
  if (now?.status === 'running') start();
  if (now?.status === 'succeeded') completed();
  return { completed, sent: () => chain, stop: unsubscribe };
}
