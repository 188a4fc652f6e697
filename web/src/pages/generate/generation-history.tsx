import { useState } from 'preact/hooks';
import { isDeleted, scheduleDelete, useDeletes } from '../../api/pending-deletes.js';
import { ImageGrid } from '../../components/image-grid.js';
import { formatUsd } from '../../lib/format.js';
import { deleteLabel, stepsThrough } from '../gallery/dialog-steps.js';
import { ImageDialog } from '../gallery/image-dialog.js';
import { useSessionResults } from './session-results.js';

/**
 * This session's earlier results, below the latest: each opens its details (and Reuse prompt, Download)
 * on top of Generate, with Previous and Next through the list.
 */
export function GenerationHistory({ latest }: { latest: string | undefined }) {
  useDeletes();
  const earlier = useSessionResults().filter((image) => image.id !== latest && !isDeleted(image.id));
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  if (earlier.length === 0) return null;
  return (
    <section class="history" aria-labelledby="history-heading">
      <h2 id="history-heading">Earlier this session</h2>
      <p class="hint">Until you reload the page; the gallery keeps them all.</p>
      <ImageGrid
        images={earlier}
        label="Earlier results"
        onOpen={(image) => setOpenId(image.id)}
        actions={(image) => (
          <p class="history-facts">
            {image.model} · {image.width} × {image.height}
            {image.parameters.seed === undefined ? '' : ` · seed ${String(image.parameters.seed)}`} · {formatUsd(image.cost)}
          </p>
        )}
      />
      {openId !== undefined && (
        <ImageDialog
          id={openId}
          preview={earlier.find((image) => image.id === openId)}
          onClose={() => setOpenId(undefined)}
          onOpen={setOpenId}
          onDelete={(image) => scheduleDelete([image.id], deleteLabel(image))}
          steps={stepsThrough(earlier, openId, setOpenId)}
        />
      )}
    </section>
  );
}
