import type { Locator, Page } from 'playwright-core';

/** Whether a box is wholly on the screen (top and bottom inside the viewport). */
export const inView = (locator: Locator): Promise<boolean> =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

/** Keeps every scrollIntoView the page asks for from now on (until it loads another document), with its options. */
export const recordScrolls = (page: Page): Promise<void> =>
  page.evaluate(() => {
    const calls: unknown[] = [];
    Reflect.set(window, 'scrollCalls', calls);
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element, options?: boolean | ScrollIntoViewOptions) {
      calls.push(options);
      Reflect.apply(original, this, [options]);
    };
  });

/** The options of the scrolls recorded: which behaviour the page chose (smooth, or not under reduced motion). */
export const scrollCalls = (page: Page): Promise<ScrollIntoViewOptions[]> => page.evaluate(() => Reflect.get(window, 'scrollCalls') as ScrollIntoViewOptions[]);
