import type { Image } from '../../api/types.js';
import { imageTitle } from '../../lib/images.js';

/** Moving through the list the image was opened from; a missing step is the end of the list. */
export interface DialogSteps {
  previous: (() => void) | undefined;
  next: (() => void) | undefined;
  /** Where the image is in the list, e.g. "3 of 24". */
  position: string;
}

/**
 * Previous and Next through a list of images, for the dialog showing `id`; undefined when the image is not
 * in the list (a lineage link led elsewhere). `more` stands in for Next at the end of a list that has more.
 */
export function stepsThrough(
  items: readonly { id: string }[],
  id: string,
  open: (id: string) => void,
  options: { total?: number | undefined; more?: (() => void) | undefined } = {},
): DialogSteps | undefined {
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) return undefined;
  const before = items[index - 1];
  const after = items[index + 1];
  return {
    previous: before === undefined ? undefined : () => open(before.id),
    next: after !== undefined ? () => open(after.id) : options.more,
    position: `${index + 1} of ${Math.max(options.total ?? items.length, items.length)}`,
  };
}

/** How a deleted image is named in its undo toast: its prompt, quoted and cut short. */
export function deleteLabel(image: Image): string {
  const title = imageTitle(image);
  return `“${title.length > 40 ? `${title.slice(0, 40)}…` : title}”`;
}
