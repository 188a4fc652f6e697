import { useEffect } from 'preact/hooks';
import { scrollBehavior } from '../../lib/motion.js';

/** The id of a batch's line in Your batches, for scrolling to it. */
export const batchItemId = (id: string): string => `batch-item-${id}`;

/**
 * Brings the batch just started into view once its line is in the list: it comes first there, above the form on a
 * phone and often above the screen on a wide one, where nobody would see it appear. Once per batch; the focus stays
 * on the form's button (the form says in a live region what happened), so a keyboard is not thrown elsewhere.
 */
export function useRevealStarted(id: string | undefined, listed: boolean): void {
  useEffect(() => {
    if (id === undefined || !listed) return;
    document.getElementById(batchItemId(id))?.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
  }, [id, listed]);
}
