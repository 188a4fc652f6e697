import type { ComponentChildren, TargetedMouseEvent } from 'preact';
import { changeSignal } from './lib/change-signal.js';

const locationChanges = changeSignal();
const notify = locationChanges.notify;
window.addEventListener('popstate', notify);

/** Moves to another page of the app without reloading it. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace === true) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

export interface Location {
  pathname: string;
  query: URLSearchParams;
}

/** The current location; the component renders again whenever it changes. */
export function useLocation(): Location {
  locationChanges.useChanges();
  return { pathname: location.pathname, query: new URLSearchParams(location.search) };
}

interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page';
  'aria-label'?: string;
}

/** An ordinary link (open in a new tab works) that changes page in place on a plain click. */
export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
