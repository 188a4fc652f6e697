import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { Image, ImageDetail } from '../../api/types.js';
import { AddToCollection } from '../../components/add-to-collection.js';
import { CopyButton } from '../../components/copy-button.js';
import { DownloadLink } from '../../components/download-link.js';
import { Only } from '../../components/only.js';
import { useLoad } from '../../hooks/use-load.js';
import { formatDateTime, formatUsd } from '../../lib/format.js';
import { imageTitle } from '../../lib/images.js';
import { Link } from '../../router.js';
import { placeOnScreen, useKeptOnScreen } from './dialog-in-page.js';
import type { DialogSteps } from './dialog-steps.js';
import { LineageLinks } from './lineage-links.js';

interface ImageDialogProps {
  id: string;
  /** The image as the grid has it, shown at once while its full record (with lineage) loads. */
  preview: Image | undefined;
  onClose: () => void;
  onDelete: (image: Image) => void;
  /** Shows another image in this dialog (a "Made from" or "Made into" link). */
  onOpen: (id: string) => void;
  /** Previous and Next (and the arrow keys); absent when the image is not in the list shown behind. */
  steps?: DialogSteps | undefined;
}

/** An upload's kind in words: what it was stored as (edits store their inputs and masks; the gallery lists them under Uploads). */
const UPLOAD_ROLES: Readonly<Record<NonNullable<Image['upload_role']>, string>> = { file: 'Uploaded', input: 'Uploaded as an edit input', mask: 'Mask' };

const typing = (target: EventTarget | null) =>
  target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;

/** One image's details in a modal dialog (Escape closes it; focus returns to the picture that opened it). */
export function ImageDialog({ id, preview, onClose, onDelete, onOpen, steps }: ImageDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Before the first paint, so the dialog never flashes in as a plain block (nor, on a phone, away from the screen).
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element === null || element.open) return;
    placeOnScreen(element);
    element.showModal();
  }, []);
  useKeptOnScreen(dialog);
  const { loaded } = useLoad((signal) => dataOf(api.GET('/api/images/{id}', { params: { path: { id } }, signal })), [id]);
  const image: ImageDetail | undefined = loaded.state === 'ready' && loaded.value.id === id ? loaded.value : preview?.id === id ? preview : undefined;
  // A link that showed another image is gone with the old content: the focus starts again at the top.
  // Previous and Next stay where they are, and keep it (unless one just went disabled at the end of the list).
  const shown = useRef(id);
  useEffect(() => {
    const focused = document.activeElement;
    const lost = focused === null || dialog.current?.contains(focused) !== true || (focused instanceof HTMLButtonElement && focused.disabled);
    if (shown.current !== id && lost) heading.current?.focus();
    // On a phone the dialog scrolls with the page: another image is read from its top, not from where the last one was.
    const top = dialog.current?.getBoundingClientRect().top ?? 0;
    if (shown.current !== id && top < 0) window.scrollBy(0, top);
    shown.current = id;
  }, [id]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
    const step = event.key === 'ArrowLeft' ? steps?.previous : event.key === 'ArrowRight' ? steps?.next : undefined;
    if (step === undefined) return;
    event.preventDefault();
    step();
  };

  return (
    <dialog ref={dialog} class="image-dialog" aria-labelledby="image-dialog-title" onClose={onClose} onKeyDown={onKeyDown}>
      <div class="dialog-head">
        <h2 id="image-dialog-title" ref={heading} tabIndex={-1}>
          Image details
        </h2>
        {steps !== undefined && (
          <div class="dialog-steps">
            <button type="button" class="button small" aria-keyshortcuts="ArrowLeft" disabled={steps.previous === undefined} onClick={steps.previous}>
              <span aria-hidden="true">←</span>
              Previous<span class="visually-hidden"> image</span>
            </button>
            <span class="dialog-position muted">{steps.position}</span>
            <button type="button" class="button small" aria-keyshortcuts="ArrowRight" disabled={steps.next === undefined} onClick={steps.next}>
              Next<span class="visually-hidden"> image</span>
              <span aria-hidden="true">→</span>
            </button>
          </div>
        )}
        <button type="button" class="button small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      {image === undefined ? (
        <p class={loaded.state === 'failed' ? 'form-error dialog-message' : 'muted dialog-message'} role={loaded.state === 'failed' ? 'alert' : 'status'}>
          {loaded.state === 'failed' ? `Could not load the image. ${loaded.failure.text}` : 'Loading the image…'}
        </p>
      ) : (
        <ImageDetails
          image={image}
          onOpen={onOpen}
          onDelete={() => {
            dialog.current?.close();
            onDelete(image);
          }}
        />
      )}
    </dialog>
  );
}

function ImageDetails({ image, onOpen, onDelete }: { image: ImageDetail; onOpen: (id: string) => void; onDelete: () => void }) {
  // The mask is an image of its own: a link below, not an id among the numbers.
  const { mask_image_id: mask, ...settings } = image.parameters;
  const parameters = Object.entries(settings);
  const sources = image.source_image_ids ?? [];
  const derived = image.derived_image_ids ?? [];
  return (
    <div class="dialog-body">
      <img src={image.r2_url} alt={imageTitle(image)} width={image.width} height={image.height} />
      <div>
        <dl class="details">
          {/* An upload's "prompt" is the name of the file it came from. */}
          <dt>{image.kind === 'upload' ? 'File name' : 'Prompt'}</dt>
          <dd>{image.prompt === '' ? 'none' : image.prompt}</dd>
          {image.kind === 'upload' ? (
            <>
              <dt>Kind</dt>
              <dd>{UPLOAD_ROLES[image.upload_role ?? 'file']}</dd>
            </>
          ) : (
            <>
              <dt>Model</dt>
              <dd>{image.model}</dd>
              <dt>Parameters</dt>
              <dd>{parameters.length === 0 ? 'none' : parameters.map(([name, value]) => `${name} ${String(value)}`).join(', ')}</dd>
            </>
          )}
          <dt>Size</dt>
          <dd>
            {image.width} × {image.height}
          </dd>
          <dt>Cost</dt>
          <dd>{formatUsd(image.cost)}</dd>
          <dt>Created</dt>
          <dd>{formatDateTime(image.created_at)}</dd>
          {sources.length > 0 && (
            <>
              <dt>Made from</dt>
              <dd>
                <LineageLinks ids={sources} label="Made from" onOpen={onOpen} />
              </dd>
            </>
          )}
          {mask !== undefined && (
            <>
              <dt>Mask</dt>
              <dd>
                <LineageLinks ids={[String(mask)]} label="Mask" onOpen={onOpen} />
              </dd>
            </>
          )}
          {derived.length > 0 && (
            <>
              <dt>Made into</dt>
              <dd>
                <LineageLinks ids={derived} label="Made into" onOpen={onOpen} />
              </dd>
            </>
          )}
          <dt>URL</dt>
          <dd class="break">{image.r2_url}</dd>
        </dl>
        <div class="actions">
          {/* Both open Generate: a key that cannot generate would find its form disabled there. */}
          <Only permission="generate">
            <Link class="button" href={`/generate?image=${encodeURIComponent(image.id)}`}>
              Edit
            </Link>
            {image.kind !== 'upload' && (
              <Link class="button" href={`/generate?reuse=${encodeURIComponent(image.id)}`}>
                Reuse prompt
              </Link>
            )}
          </Only>
          <CopyButton text={image.r2_url} label="Copy URL" />
          <DownloadLink image={image} />
          <Only permission="manage">
            <button type="button" class="button danger-outline" onClick={onDelete}>
              Delete
            </button>
          </Only>
        </div>
        <Only permission="manage" otherwise={<p class="hint limited-note">Delete and collections need a manage key.</p>}>
          <AddToCollection imageIds={[image.id]} idPrefix="dialog" />
        </Only>
      </div>
    </div>
  );
}
