import type { Permission } from '../api/types.js';

/**
 * "This key cannot delete images (it has read and generate only): sign in with a key that has the manage
 * permission." One sentence for every control a key may not use, so they all read alike.
 */
export function refusal(action: string, needed: Permission, held: readonly Permission[]): string {
  const has = held.length === 0 ? 'no permissions' : `${held.join(' and ')} only`;
  return `This key cannot ${action} (it has ${has}): sign in with a key that has the ${needed} permission.`;
}

export interface Section {
  href: string;
  label: string;
  /** What the page needs before it can show anything: its lists are GETs (read); keys need manage. */
  permission: Permission;
  action: string;
}

/** The menu's pages, in order, with what each needs (from the x-permissions of the routes it calls). */
export const SECTIONS: readonly Section[] = [
  { href: '/generate', label: 'Generate', permission: 'read', action: 'list the models to generate with' },
  { href: '/gallery', label: 'Gallery', permission: 'read', action: 'list images' },
  { href: '/collections', label: 'Collections', permission: 'read', action: 'list collections' },
  { href: '/templates', label: 'Templates', permission: 'read', action: 'list templates' },
  { href: '/batches', label: 'Batches', permission: 'read', action: 'list batches' },
  { href: '/analytics', label: 'Analytics', permission: 'read', action: 'read usage' },
  { href: '/keys', label: 'API keys', permission: 'manage', action: 'manage API keys' },
];

/** Paths that belong to another section than their first segment says: a generation is followed on Generate. */
const SECTION_OF_SEGMENT: ReadonlyMap<string, string> = new Map([
  ['', '/generate'],
  ['generations', '/generate'],
]);

/** The section a path belongs to: `/collections/coll_1` is under Collections, `/` and `/generations/gen_1` are Generate. */
export const sectionOf = (pathname: string): Section | undefined => {
  const segment = pathname.split('/')[1] ?? '';
  const href = SECTION_OF_SEGMENT.get(segment) ?? `/${segment}`;
  return SECTIONS.find((section) => section.href === href);
};
