import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** Kept by CI with the rest of test-results/; ignored by git. */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../../test-results/screenshots');

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 360, height: 740 };

/** Waits until the pictures on screen have loaded and layout has settled (charts size themselves to their box). */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.images].filter((image) => image.loading !== 'lazy' || image.getBoundingClientRect().top < innerHeight).every((image) => image.complete),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * The whole page at desktop and phone width, as `<name>-1280.png` and `<name>-360.png`; the page is left at
 * desktop width. A modal dialog is shot as the screen shows it (`fullPage: false`): it scrolls inside itself.
 */
export async function screenshotBoth(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string[]> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const files: string[] = [];
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await settle(page);
    const file = path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`);
    await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
    files.push(file);
  }
  await page.setViewportSize(DESKTOP);
  return files;
}

/** Nothing sticks out sideways at phone width (the usual sign of a layout that does not fit 360 px). */
export async function horizontalOverflow(page: Page): Promise<number> {
  await page.setViewportSize(PHONE);
  await settle(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.setViewportSize(DESKTOP);
  return overflow;
}
