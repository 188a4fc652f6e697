import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, SCREENSHOT_DIR } from './screenshots.js';

/** A common phone width (iPhone 12 to 15), besides the narrowest 360 px the older tests use. */
export const PHONE_390 = { width: 390, height: 844 };

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.images].filter((image) => image.loading !== 'lazy' || image.getBoundingClientRect().top < innerHeight).every((image) => image.complete),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * `<name>-1280.png` and `<name>-390.png`; answers how far the page sticks out sideways at 390 px (0 when it
 * fits). The page is left at desktop width. A modal dialog is shot as the screen shows it (`fullPage: false`).
 */
export async function shootAt1280And390(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<number> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  let overflow = 0;
  for (const size of [DESKTOP, PHONE_390]) {
    await page.setViewportSize(size);
    await settle(page);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`), fullPage: options.fullPage ?? true });
    if (size === PHONE_390) overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }
  await page.setViewportSize(DESKTOP);
  return overflow;
}
