import type { TargetedMouseEvent } from 'preact';
import { useEffect } from 'preact/hooks';
import type { BatchItem } from '../../api/types.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useGenerations } from '../../hooks/use-generation.js';
import { generationsToFollow, isFinal, type GenerationView } from '../../lib/generation-state.js';
import { detailsHref } from '../gallery/details-address.js';

/** Streams open at once on a batch page: the browser allows six connections to a server, the page needs some. */
const MAX_STREAMS = 3;

const ITEM_FINAL = new Set(['succeeded', 'failed', 'cancelled']);

interface BatchItemsProps {
  items: BatchItem[];
  /** The batch is still running: its open prompts are followed. */
  open: boolean;
  /** A followed prompt ended: the batch is read again for its image, counts and errors. */
  onSettled: () => void;
  onOpen: (imageId: string) => (event: TargetedMouseEvent<HTMLAnchorElement>) => void;
}

/**
 * Each prompt of a batch and how it is doing. Where the batch names a prompt's generation (`generation_id`), its
 * events show it live (queue, progress, partial images); otherwise the state is the batch's, read again while open.
 */
export function BatchItems({ items, open, onSettled, onOpen }: BatchItemsProps) {
  const live = useGenerations(open ? generationsToFollow(items) : [], MAX_STREAMS);
  const settled = [...live.values()].filter((view) => isFinal(view.generation.status)).map((view) => view.generation.id);
  useEffect(() => {
    if (settled.length > 0) onSettled();
  }, [settled.join(' ')]);
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Prompt</th>
          <th scope="col">State</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => {
          const view = ITEM_FINAL.has(item.status) || typeof item.generation_id !== 'string' ? undefined : live.get(item.generation_id);
          return (
            <tr key={item.index}>
              <td>{item.index + 1}</td>
              <td>{item.prompt}</td>
              <td>
                <ItemState item={item} view={view} />
              </td>
              <td>
                {item.image !== null ? (
                  <a href={detailsHref(item.image.id)} aria-label={`Image of ${item.prompt}`} onClick={onOpen(item.image.id)}>
                    Image
                  </a>
                ) : view?.partial !== undefined ? (
                  <img class="batch-partial" src={view.partial.src} alt={`Partial image of ${item.prompt}`} />
                ) : (
                  (item.error ?? '')
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The batch's word for the state (a queued generation is a pending prompt), with the queue or the progress. */
function ItemState({ item, view }: { item: BatchItem; view: GenerationView | undefined }) {
  if (view === undefined) return <StatusBadge status={item.status} />;
  const generation = view.generation;
  const status = generation.status === 'queued' ? 'pending' : generation.status;
  const progress = generation.progress;
  return (
    <div class="item-state">
      <StatusBadge status={status} />
      {generation.status === 'queued' && generation.queue_position !== undefined && <span class="muted">{generation.queue_position} before it</span>}
      {generation.status === 'running' && progress !== undefined && (
        <>
          <progress value={progress} max={1} aria-label={`Progress of prompt ${item.index + 1}`} />
          <span class="muted">{Math.round(progress * 100)} %</span>
        </>
      )}
    </div>
  );
}
