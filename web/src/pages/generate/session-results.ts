import { useEffect, useReducer } from 'preact/hooks';
import type { Image } from '../../api/types.js';

/** Enough to look back over a session; older results are in the gallery anyway. */
const KEEP = 100;

/**
 * What this tab generated, newest first. Kept in memory here rather than in the Generate page, so going to
 * the gallery and back keeps it; a reload starts over (the gallery has everything).
 */
const results: Image[] = [];
const listeners = new Set<() => void>();

export function rememberResult(image: Image): void {
  results.unshift(image);
  results.splice(KEEP);
  for (const listener of listeners) listener();
}

/** This session's results, newest first; the component renders again when one is added. */
export function useSessionResults(): readonly Image[] {
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    const listener = () => rerender(undefined);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return [...results];
}
