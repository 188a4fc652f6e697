import type { ComponentChildren } from 'preact';
import { PageHeading } from '../components/page-heading.js';
import { sectionOf } from '../lib/permissions.js';
import { useAllowance } from '../session.js';

/**
 * The page, or (for a key without the permission its lists need) its title and why this key cannot use it:
 * nothing is requested, so no 403 is shown or logged. Pages outside the menu (sign-in) always show.
 */
export function PageGate({ pathname, children }: { pathname: string; children: ComponentChildren }) {
  const section = sectionOf(pathname);
  const { allowed, reason } = useAllowance(section?.permission ?? 'read', section?.action ?? '');
  if (section === undefined || allowed) return <>{children}</>;
  return (
    <>
      <PageHeading title={section.label} />
      <p class="refusal">{reason}</p>
    </>
  );
}
