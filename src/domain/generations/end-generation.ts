import type { GenerationFailure, GenerationRow } from '../../ports/database.js';
import type { Deps } from '../context.js';
import { generationEventDelivery, scheduleGenerationEvent } from '../webhooks/generation-event.js';
import { DEADLINE_PASSED } from './generation-failure.js';
import { publish } from './generation-record.js';
import { batchItemOf } from '../batches/batch-generation.js';

/** A batch's prompt keeps one line of why it failed (GET /api/batch/{id}): what the error says to fix, else its title. */
function itemError(failure: GenerationFailure): string {
  const details = failure.details;
  if (typeof details === 'object' && details !== null && 'message' in details && typeof details.message === 'string') return details.message;
  return failure.error;
}

/**
 * Ends a generation `failed` or `cancelled`, with its webhook event (when asked for) in the same unit of work, so an
 * ended generation always has its event, once. True when this call ended it; then the event is published and its
 * delivery queued.
 */
export async function endGeneration(
  deps: Deps,
  row: GenerationRow,
  status: 'failed' | 'cancelled',
  failure: GenerationFailure,
  options: { onlyQueued?: boolean } = {},
): Promise<boolean> {
  const type = status === 'failed' ? 'generation.failed' : 'generation.cancelled';
  const event = generationEventDelivery(deps, row, type, { failure });
  const batchItem = batchItemOf(row, itemError(failure));
  const ended = await deps.db.generations.end(row.id, status, failure, deps.clock.now().toISOString(), {
    ...options,
    ...(event === undefined ? {} : { event }),
    ...(batchItem === undefined ? {} : { batchItem }),
  });
  if (!ended) return false;
  await publish(deps, type, row.id, { error: failure });
  await scheduleGenerationEvent(deps, event);
  return true;
}

/** Still queued when its deadline came: it never reached a provider, so nothing is charged. */
export const pastDeadline = (row: GenerationRow, now: Date): boolean =>
  row.status === 'queued' && row.deadline_at !== null && row.deadline_at <= now.toISOString();

/**
 * Cancels a generation left queued past its deadline. Only a queued one: a running one may already be billed by its
 * provider, and runs to its end.
 */
export async function cancelPastDeadline(deps: Deps, row: GenerationRow): Promise<boolean> {
  if (!pastDeadline(row, deps.clock.now())) return false;
  return endGeneration(deps, row, 'cancelled', DEADLINE_PASSED, { onlyQueued: true });
}
