import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { PageHeading } from '../components/page-heading.js';
import { homeFor } from '../lib/landing.js';
import { SECTIONS, missingFor, refusal, sectionOf } from '../lib/permissions.js';
import { Link, navigate } from '../router.js';
import { permissionsOf, useSession } from '../session.js';

/**
 * The page, or (for a key without the permissions it needs) its title, why this key cannot use it and the way to
 * a page it can: nothing is requested, so no 403 is shown or logged. Pages outside the menu (sign-in) always show.
 * The bare address `/` is no page of its own: a key that cannot generate is taken to its first page instead.
 */
export function PageGate({ pathname, children }: { pathname: string; children: ComponentChildren }) {
  const held = permissionsOf(useSession());
  const section = sectionOf(pathname);
  const missing = section === undefined ? undefined : missingFor(section, held);
  const home = homeFor(held);
  const toHome = missing !== undefined && pathname === '/' && home !== '/generate';
  useEffect(() => {
    if (toHome) navigate(home, { replace: true });
  }, [toHome, home]);
  if (section === undefined || missing === undefined) return <>{children}</>;
  if (toHome) return null;
  const homeLabel = home === section.href ? undefined : SECTIONS.find((other) => other.href === home)?.label;
  return (
    <>
      <PageHeading title={section.label} />
      <p class="refusal">{refusal(missing.action, missing.permission, held)}</p>
      {homeLabel !== undefined && (
        <p>
          <Link href={home}>Go to {homeLabel}</Link>
        </p>
      )}
    </>
  );
}
