import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { homeFor } from '../lib/landing.js';
import { SECTIONS, missingFor, sectionOf } from '../lib/permissions.js';
import { Link } from '../router.js';
import { permissionsOf, useSession } from '../session.js';

export function Layout({ signedIn, pathname, children }: { signedIn: boolean; pathname: string; children: ComponentChildren }) {
  const session = useSession();
  const current = sectionOf(pathname)?.href;
  const held = permissionsOf(session);
  // Only the pages this key can use; API keys only where there are keys (not in the IP allow-list mode).
  const links = SECTIONS.filter((section) => missingFor(section, held) === undefined && (section.href !== '/keys' || session.mode === 'api_key'));
  const menu = useMenu(pathname);
  const key = session.me?.key ?? null;
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class={signedIn ? 'top-inner has-menu' : 'top-inner'} onKeyDown={menu.onKeyDown}>
          <Link href={signedIn ? homeFor(held) : '/sign-in'} class="brand" aria-label="imagegate home">
            <svg aria-hidden="true" viewBox="0 0 16 16" width="22" height="22">
              <rect width="16" height="16" rx="3" fill="currentColor" />
              <path d="M3 12l3-4 2 2 3-4 2 6z" fill="#fff" />
            </svg>
            <span>imagegate</span>
          </Link>
          {signedIn && (
            // Shown on narrow screens only (CSS): the menu folds away behind it instead of taking three rows.
            <button type="button" class="button menu-button" aria-expanded={menu.open} aria-controls="top-menu" ref={menu.button} onClick={menu.toggle}>
              <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
                <path d="M2 4h12M2 8h12M2 12h12" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" />
              </svg>
              Menu
            </button>
          )}
          <div id="top-menu" class={menu.open ? 'top-menu open' : 'top-menu'}>
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
              {/* A key that cannot do everything says so once, here; each control it cannot use says why. */}
              {signedIn && key !== null && !held.includes('manage') && (
                <span class="key-identity">
                  {key.name}: {held.join(' and ')} only
                </span>
              )}
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
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** The narrow-screen menu: closed again by choosing a page or by Escape (focus then goes back to its button). */
function useMenu(pathname: string) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [pathname]);
  return {
    open,
    button,
    toggle: () => setOpen((was) => !was),
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !open) return;
      setOpen(false);
      button.current?.focus();
    },
  };
}
