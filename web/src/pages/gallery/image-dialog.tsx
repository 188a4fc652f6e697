import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Image } from '../../api/types.js';
import { AddToCollection } from '../../components/add-to-collection.js';
import { CopyButton } from '../../components/copy-button.js';
import { formatDateTime, formatUsd } from '../../lib/format.js';

/** One image's details in a modal dialog (Escape closes it; focus returns to the picture that opened it). */
export function ImageDialog({ image, onClose, onDelete }: { image: Image; onClose: () => void; onDelete: (image: Image) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Before the first paint, so the dialog never flashes in as a plain block.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
  }, []);
  const parameters = Object.entries(image.parameters);

  return (
    <dialog ref={dialog} class="image-dialog" aria-labelledby="image-dialog-title" onClose={onClose}>
      <div class="dialog-head">
        <h2 id="image-dialog-title">Image details</h2>
        <button type="button" class="button small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <div class="dialog-body">
        <img src={image.r2_url} alt={image.prompt} width={image.width} height={image.height} />
        <div>
          <dl class="details">
            <dt>Prompt</dt>
            <dd>{image.prompt}</dd>
            <dt>Model</dt>
            <dd>{image.model}</dd>
            <dt>Parameters</dt>
            <dd>{parameters.length === 0 ? 'none' : parameters.map(([name, value]) => `${name} ${String(value)}`).join(', ')}</dd>
            <dt>Size</dt>
            <dd>
              {image.width} × {image.height}
            </dd>
            <dt>Cost</dt>
            <dd>{formatUsd(image.cost)}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(image.created_at)}</dd>
            <dt>URL</dt>
            <dd class="break">{image.r2_url}</dd>
          </dl>
          <div class="actions">
            <CopyButton text={image.r2_url} label="Copy URL" />
            <a class="button" href={image.r2_url} download={`${image.id}.png`}>
              Download
            </a>
            <button
              type="button"
              class="button danger-outline"
              onClick={() => {
                dialog.current?.close();
                onDelete(image);
              }}
            >
              Delete
            </button>
          </div>
          <AddToCollection imageIds={[image.id]} idPrefix="dialog" />
        </div>
      </div>
    </dialog>
  );
}
