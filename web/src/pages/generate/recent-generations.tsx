import { api, dataOf } from '../../api/client.js';
import type { Generation, GenerationList, GenerationStatus } from '../../api/types.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useLoad } from '../../hooks/use-load.js';
import { usePolling } from '../../hooks/use-polling.js';
import { formatDateTime } from '../../lib/format.js';
import { isFinal } from '../../lib/generation-state.js';
import { Link } from '../../router.js';

const latest = (signal?: AbortSignal): Promise<GenerationList> => dataOf(api.GET('/api/generations', { params: { query: { limit: 6 } }, signal }));

/** What a line says after the badge: the queue, the progress, or when it was asked for. */
function stateOf(generation: Generation): string {
  if (generation.status === 'queued')
    return generation.queue_position === undefined || generation.queue_position === 0 ? 'next' : `${generation.queue_position} before it`;
  if (generation.status === 'running') return generation.progress === undefined ? 'drawing' : `${Math.round(generation.progress * 100)} %`;
  return formatDateTime(generation.created_at);
}

/**
 * The caller's latest generations, newest first: whoever left one running (for another page, or by closing the tab)
 * finds it here and follows it again. Read again while any is open, and when the one this page
 * follows changes state.
 */
export function RecentGenerations({ current, currentStatus }: { current: string | undefined; currentStatus: GenerationStatus | undefined }) {
  const { loaded, set } = useLoad((signal) => latest(signal), [current, currentStatus]);
  const list = loaded.state === 'ready' ? loaded.value.generations : [];
  usePolling(
    list.some((generation) => !isFinal(generation.status)),
    async () => set(await latest()),
    2000,
  );
  if (list.length === 0) return null;
  return (
    <section class="recent-generations" aria-labelledby="recent-generations-heading">
      <h2 id="recent-generations-heading">Recent generations</h2>
      <ul class="recent-list">
        {list.map((generation) => (
          <li key={generation.id}>
            <Link href={`/generations/${encodeURIComponent(generation.id)}`} aria-current={generation.id === current ? 'page' : undefined}>
              {generation.prompt}
            </Link>
            <span class="recent-state">
              <StatusBadge status={generation.status} /> {stateOf(generation)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
