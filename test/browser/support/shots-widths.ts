import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, SCREENSHOT_DIR } from './screenshots.js';

/** A common phone width (iPhone 12 to 15), besides the narrowest 360 px the older tests use. */
export const PHONE_390 = { width: 390, height: 844 };
/** A tablet held upright (iPad mini), between the desktop and the phones. */
export const TABLET_768 = { width: 768, height: 1024 };
/** Desktop, tablet, a common phone and the narrowest phone the app supports. */
export const FOUR_WIDTHS = [DESKTOP, TABLET_768, PHONE_390, PHONE] as const;

type Size = { width: number; height: number };

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.images].filter((image) => image.loading !== 'lazy' || image.getBoundingClientRect().top < innerHeight).every((image) => image.complete),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * `<name>-<width>.png` for each size; answers, per width, how far the page sticks out sideways (0 when it fits). The
 * page is left at desktop width. A modal dialog, or what a scroll brought into view, is shot as the screen shows it
 * (`fullPage: false`).
 */
export async function shootAtWidths(page: Page, name: string, sizes: readonly Size[], options: { fullPage?: boolean } = {}): Promise<Record<number, number>> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const overflow: Record<number, number> = {};
  for (const size of sizes) {
    await page.setViewportSize(size);
    await settle(page);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`), fullPage: options.fullPage ?? true });
    overflow[size.width] = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }
  await page.setViewportSize(DESKTOP);
  return overflow;
}

/** At 1280, 768, 390 and 360 px; the overflow per width. */
export const shootAtFourWidths = (page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<Record<number, number>> =>
  shootAtWidths(page, name, FOUR_WIDTHS, options);

/** At the four widths; the widest overflow of them (0 when the page fits at every one). */
export const widestOverflowAtFourWidths = async (page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<number> =>
  Math.max(...Object.values(await shootAtFourWidths(page, name, options)));

/** At 1280 and 390 px; the overflow at 390. */
export const shootAt1280And390 = async (page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<number> =>
  (await shootAtWidths(page, name, [DESKTOP, PHONE_390], options))[PHONE_390.width] ?? 0;
