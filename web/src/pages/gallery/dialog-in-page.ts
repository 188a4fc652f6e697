import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/*
 * On a phone the image details are part of the page, which scrolls them (index.css, issue 35): one scroll, not a box
 * scrolling inside a page that scrolls too. The dialog is then placed in the page at --dialog-top.
 */

/** Where the screen is: the dialog opens there, not at the top of a page scrolled far down. */
export function placeOnScreen(dialog: HTMLElement): void {
  dialog.style.setProperty('--dialog-top', `${String(window.scrollY)}px`);
}

/** A resize (a phone turned, and back) can leave the dialog where the screen no longer is: it comes back to it. */
export function useKeptOnScreen(dialog: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onResize = () => {
      const element = dialog.current;
      if (element === null) return;
      const box = element.getBoundingClientRect();
      if (box.bottom < 0 || box.top > window.innerHeight) placeOnScreen(element);
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
}
