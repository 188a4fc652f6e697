import { navigate } from '../../router.js';

/**
 * An image's details have their own address, `/gallery/<id>`, with the gallery's filters kept in the query,
 * so they can be linked, reloaded and left with Back. History entries the app opened itself carry a mark:
 * closing those goes back (one Back press, no stray entry); a details page opened from outside (a link, a
 * new tab) is replaced by the gallery instead.
 */
const MARK = 'imagegate.detailsFromGallery';

export const detailsHref = (id: string, search = ''): string => `/gallery/${encodeURIComponent(id)}${search}`;

const openedHere = (): boolean => {
  const state: unknown = history.state;
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[MARK] === true;
};
const mark = () => history.replaceState({ [MARK]: true }, '');

/** Opens an image's details on top of the gallery, as a new history entry. */
export function openDetails(id: string): void {
  navigate(detailsHref(id, location.search));
  mark();
}

/** Shows another image in the open dialog (Previous, Next, a lineage link): Back still closes the dialog. */
export function showDetails(id: string): void {
  const marked = openedHere();
  navigate(detailsHref(id, location.search), { replace: true });
  if (marked) mark();
}

/** Back to the gallery with its filters; nothing when the address has already left the details (Back was pressed). */
export function closeDetails(): void {
  if (!location.pathname.startsWith('/gallery/')) return;
  if (openedHere()) history.back();
  else navigate(`/gallery${location.search}`, { replace: true });
}
