import { useEffect, useRef } from 'preact/hooks';
import { dismissFailure, undoDelete, useDeletes, UNDO_SECONDS } from '../api/pending-deletes.js';

/**
 * "Deleted. Undo" for each delete still waiting, and the API's words for any that failed. The newest Undo
 * takes the focus (it is the likely next action); when its toast goes, focus returns to the page heading.
 */
export function DeleteToasts() {
  const { waiting, failed } = useDeletes();
  const newest = waiting.at(-1)?.token;
  const newestRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    newestRef.current?.focus();
  }, [newest]);
  const before = useRef(0);
  useEffect(() => {
    // Only when the last toast has just gone (it may have held the focus), never on the first render.
    const focusLost = document.activeElement === document.body || document.activeElement === null;
    if (focusLost && before.current > 0 && waiting.length === 0) document.querySelector<HTMLElement>('main h1')?.focus();
    before.current = waiting.length;
  }, [waiting.length]);

  return (
    <div class="toasts" aria-label="Notifications" role="region">
      {waiting.map((entry) => (
        <div class="toast" role="status" key={entry.token}>
          <span>
            Deleted {entry.label}. It can be brought back for {UNDO_SECONDS} seconds.
          </span>
          <button type="button" class="button" ref={entry.token === newest ? newestRef : undefined} onClick={() => undoDelete(entry.token)}>
            Undo
          </button>
        </div>
      ))}
      {failed.map((entry) => (
        <div class="toast toast-error" role="alert" key={`failed-${entry.token}`}>
          <span>
            Could not delete {entry.label}: {entry.failure.text}
          </span>
          <button type="button" class="button" onClick={() => dismissFailure(entry.token)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
