import type { ComponentChildren } from 'preact';
import { Link } from '../router.js';
import { useSession } from '../session.js';

const LINKS = [
  { href: '/generate', label: 'Generate' },
  { href: '/gallery', label: 'Gallery' },
  { href: '/collections', label: 'Collections' },
  { href: '/templates', label: 'Templates' },
  { href: '/batches', label: 'Batches' },
  { href: '/analytics', label: 'Analytics' },
] as const;

/** The page a path belongs to in the menu: `/collections/coll_1` is under Collections, `/` is Generate. */
const section = (pathname: string): string => (pathname === '/' ? '/generate' : `/${pathname.split('/')[1] ?? ''}`);

export function Layout({ signedIn, pathname, children }: { signedIn: boolean; pathname: string; children: ComponentChildren }) {
  const session = useSession();
  const current = section(pathname);
  const links = [...LINKS, ...(session.canManage ? [{ href: '/keys', label: 'API keys' }] : [])];
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="top-inner">
          <Link href={signedIn ? '/generate' : '/sign-in'} class="brand" aria-label="imagegate home">
            <svg aria-hidden="true" viewBox="0 0 16 16" width="22" height="22">
              <rect width="16" height="16" rx="3" fill="currentColor" />
              <path d="M3 12l3-4 2 2 3-4 2 6z" fill="#fff" />
            </svg>
            <span>imagegate</span>
          </Link>
          {signedIn && (
            <nav aria-label="Main">
              <ul>
                {links.map((link) => (
                  <li key={link.href}>
                    <Link href={link.href} aria-current={current === link.href ? 'page' : undefined}>
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <div class="top-end">
            <a href="/docs" class="quiet-link">
              API docs
            </a>
            {signedIn && session.mode === 'api_key' && (
              <button type="button" class="button small" onClick={session.signOut}>
                Sign out
              </button>
            )}
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
