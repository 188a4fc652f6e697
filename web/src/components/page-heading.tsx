import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** The page's one h1; focusable from script, so moving to a page moves focus (and a screen reader) to it. */
export function PageHeading({ title, children }: { title: string; children?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · imagegate`;
  }, [title]);
  return (
    <div class="page-heading">
      <h1 tabIndex={-1}>{title}</h1>
      {children}
    </div>
  );
}
