import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, SCREENSHOT_DIR } from './screenshots.js';
import { PHONE_390 } from './shots-390.js';

/** A tablet held upright (iPad mini), between the desktop and the phones. */
export const TABLET_768 = { width: 768, height: 1024 };

/** Desktop, tablet, a common phone and the narrowest phone the app supports. */
export const FOUR_WIDTHS = [DESKTOP, TABLET_768, PHONE_390, PHONE] as const;

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.images].filter((image) => image.loading !== 'lazy' || image.getBoundingClientRect().top < innerHeight).every((image) => image.complete),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * `<name>-1280.png`, `-768.png`, `-390.png` and `-360.png`; answers, per width, how far the page sticks out
 * sideways (0 when it fits). The page is left at desktop width. A modal dialog is shot as the screen shows it
 * (`fullPage: false`): it scrolls inside itself.
 */
export async function shootAtFourWidths(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<Record<number, number>> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const overflow: Record<number, number> = {};
  for (const size of FOUR_WIDTHS) {
    await page.setViewportSize(size);
    await settle(page);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`), fullPage: options.fullPage ?? true });
    overflow[size.width] = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }
  await page.setViewportSize(DESKTOP);
  return overflow;
}
