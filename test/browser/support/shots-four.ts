import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, SCREENSHOT_DIR } from './screenshots.js';
import { PHONE_390 } from './shots-390.js';

/** A tablet held upright (an iPad mini is 768 px): between the phones and the two-column desktop layouts. */
export const TABLET_768 = { width: 768, height: 1024 };

export const FOUR_WIDTHS = [DESKTOP, TABLET_768, PHONE_390, PHONE] as const;

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.images].filter((image) => image.loading !== 'lazy' || image.getBoundingClientRect().top < innerHeight).every((image) => image.complete),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * `<name>-1280.png`, `-768.png`, `-390.png` and `-360.png`; answers how far the page sticks out sideways at the
 * widest of its overflows (0 when it fits everywhere). The page is left at desktop width. `fullPage: false` shoots
 * the screen as it is (a dialog, or what a scroll brought into view).
 */
export async function shootAtFourWidths(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<number> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  let overflow = 0;
  for (const size of FOUR_WIDTHS) {
    await page.setViewportSize(size);
    await settle(page);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`), fullPage: options.fullPage ?? true });
    overflow = Math.max(overflow, await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth));
  }
  await page.setViewportSize(DESKTOP);
  return overflow;
}
