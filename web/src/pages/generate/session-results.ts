import type { Image } from '../../api/types.js';
import { changeSignal } from '../../lib/change-signal.js';

/** Enough to look back over a session; older results are in the gallery anyway. */
const KEEP = 100;

/**
 * What this tab generated, newest first. Kept in memory here rather than in the Generate page, so going to
 * the gallery and back keeps it; a reload starts over (the gallery has everything).
 */
const results: Image[] = [];
const added = changeSignal();

/** Once each: the same image is seen again when its generation is opened again. */
export function rememberResult(image: Image): void {
  if (results.some((known) => known.id === image.id)) return;
  results.unshift(image);
  results.splice(KEEP);
  added.notify();
}

/** This session's results, newest first; the component renders again when one is added. */
export function useSessionResults(): readonly Image[] {
  added.useChanges();
  return [...results];
}
