import { useEffect } from 'preact/hooks';
import type { Permission } from '../api/types.js';
import { SECTIONS, missingFor, sectionOf } from './permissions.js';

const RECENT_ITEM = 'imagegate.recentPages';
const KEEP = 10;

/** May a key holding `held` use the page at `path` (a path of the app, query included)? Paths outside the menu's sections: no. */
export function maySee(path: string, held: readonly Permission[]): boolean {
  const section = sectionOf(path.split('?')[0] ?? path);
  return section !== undefined && missingFor(section, held) === undefined;
}

/** The first page of the menu the key may use: Generate for a key that generates, the gallery for a read-only one. */
export function homeFor(held: readonly Permission[]): string {
  return SECTIONS.find((section) => missingFor(section, held) === undefined)?.href ?? '/generate';
}

/**
 * Where a key lands after signing in: the page it was sent from (`next`), else the latest page this tab showed
 * that it may use, else its home. Another key may have been signed in before (an admin who signed out on the API
 * keys page): a page the new key cannot use would only say so, so it is passed over.
 */
export function landingFor(next: string | undefined, held: readonly Permission[]): string {
  const candidates = [...(next === undefined ? [] : [next]), ...recentPages().reverse()];
  return candidates.find((path) => maySee(path, held)) ?? homeFor(held);
}

function recentPages(): string[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(RECENT_ITEM) ?? '[]');
    return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Remembers the pages shown in this tab that the signed-in key could use (key mode only: there a different key
 * may sign in next), in session storage as the key is, so it ends with the tab. The latest is last. A page that
 * only said why the key cannot use it is no page to come back to.
 */
export function useRecentPages(signedIn: boolean, path: string, held: readonly Permission[]): void {
  useEffect(() => {
    if (!signedIn || !maySee(path, held)) return;
    const pages = [...recentPages().filter((page) => page !== path), path].slice(-KEEP);
    try {
      sessionStorage.setItem(RECENT_ITEM, JSON.stringify(pages));
    } catch {
      // Storage refused (private mode, quota): sign-in then falls back to the key's home page.
    }
  }, [signedIn, path, held.join()]);
}
