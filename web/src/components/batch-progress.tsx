import type { Batch } from '../api/types.js';
import { StatusBadge } from './status-badge.js';

/** How far a batch has got, as a bar and in words. */
export function BatchProgress({ batch }: { batch: Batch }) {
  const done = batch.completed_count + batch.failed_count;
  return (
    <div class="batch-progress">
      <progress value={done} max={batch.total_prompts} aria-label={`Progress of ${batch.name}`} />
      <span>
        {done} of {batch.total_prompts} done{batch.failed_count > 0 ? `, ${batch.failed_count} failed` : ''} <StatusBadge status={batch.status} />
      </span>
    </div>
  );
}

export const isRunning = (batch: Batch): boolean => batch.status === 'queued' || batch.status === 'processing';
