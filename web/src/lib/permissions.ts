import type { Permission } from '../api/types.js';

/**
 * "This key cannot delete images (it has read and generate only): sign in with a key that has the manage
 * permission." One sentence for every control a key may not use, so they all read alike.
 */
export function refusal(action: string, needed: Permission, held: readonly Permission[]): string {
  const has = held.length === 0 ? 'no permissions' : `${held.join(' and ')} only`;
  return `This key cannot ${action} (it has ${has}): sign in with a key that has the ${needed} permission.`;
}

/** One permission a page needs, with what it is needed for (as in "This key cannot <action>"). */
export interface Need {
  permission: Permission;
  action: string;
}

export interface Section {
  href: string;
  label: string;
  /**
   * What the page needs before it is any use: its lists are GETs (read); Generate also needs generate, as a
   * page whose one form cannot be sent is a dead end; keys need manage.
   */
  needs: readonly Need[];
}

const READ = (action: string): Need => ({ permission: 'read', action });

/** The menu's pages, in order, with what each needs (from the x-permissions of the routes it calls). */
export const SECTIONS: readonly Section[] = [
  { href: '/generate', label: 'Generate', needs: [READ('list the models to generate with'), { permission: 'generate', action: 'generate' }] },
  { href: '/gallery', label: 'Gallery', needs: [READ('list images')] },
  { href: '/collections', label: 'Collections', needs: [READ('list collections')] },
  { href: '/templates', label: 'Templates', needs: [READ('list templates')] },
  { href: '/batches', label: 'Batches', needs: [READ('list batches')] },
  { href: '/analytics', label: 'Analytics', needs: [READ('read usage')] },
  { href: '/keys', label: 'API keys', needs: [{ permission: 'manage', action: 'manage API keys' }] },
];

/** The first thing the section needs that the key does not hold; undefined when the key may use it. */
export const missingFor = (section: Section, held: readonly Permission[]): Need | undefined => section.needs.find((need) => !held.includes(need.permission));

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
