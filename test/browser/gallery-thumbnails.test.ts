import { eventually } from '../../src/test-support/webhook-receiver.js';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { EAGER_TILES, TILE_SIZES } from '../../web/src/lib/images.js';
import { callApi } from './support/api-call.js';
import { skipWithoutChromium } from './support/chromium.js';
import { closeAndGuard, openWebSession, type WebSession } from './support/web-session.js';

const KEY = 'igk_web_gallery_thumbnails_admin_key_0123456';
const skip = skipWithoutChromium();

interface Made {
  id: string;
  prompt: string;
  r2_url: string;
  thumbnails: { small: string; medium: string } | null;
}

interface Tile {
  src: string | null;
  srcset: string | null;
  sizes: string | null;
  loading: string | null;
  currentSrc: string;
}

/** Issue 21: the grid draws thumbnails, not originals, and loads the tiles below the first row lazily. */
describe.skipIf(skip)('the gallery grid: thumbnails by srcset, lazy below the first row (real server, Chromium)', { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;
  const made: Made[] = [];

  beforeAll(async () => {
    web = await openWebSession({ env: { ADMIN_API_KEY: KEY }, signInKey: KEY });
    page = web.page;
    // 320 px: the small thumbnail is 256 px wide, the medium one keeps the image's 320.
    for (let i = 0; i < EAGER_TILES + 2; i += 1) {
      const image = await callApi<Made>(web.origin, KEY, 'POST', '/api/generate', {
        prompt: `a harbour, tile ${i}`,
        model: 'local/procedural',
        width: 320,
        height: 320,
        steps: 1,
      });
      // Thumbnails are made after the answer, by a job of their own: the record as it is once they exist.
      made.push(
        await eventually(async () => {
          const now = await callApi<Made>(web.origin, KEY, 'GET', `/api/images/${image.id}`);
          return now.thumbnails === null ? undefined : now;
        }, 30_000),
      );
    }
  }, 180_000);
  closeAndGuard(() => web);

  const tiles = () =>
    page.locator('ul[aria-label="Images"] img').evaluateAll((images) =>
      images.map((element) => {
        const img = element as HTMLImageElement;
        return {
          src: img.getAttribute('src'),
          srcset: img.getAttribute('srcset'),
          sizes: img.getAttribute('sizes'),
          loading: img.getAttribute('loading'),
          currentSrc: img.currentSrc,
        };
      }),
    ) as Promise<Tile[]>;

  it('offers each tile its thumbnails in a srcset, loads the 256 px one for a tile, and the first row eagerly', async () => {
    await page.goto(`${web.origin}/gallery`);
    const newestFirst = [...made].reverse();
    const first = newestFirst[0];
    await page.getByRole('button', { name: first?.prompt }).waitFor();
    // The first tiles are in view: wait until the browser has picked and loaded their pictures.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('ul[aria-label="Images"] img')].slice(0, 2).every((img) => img.complete && img.currentSrc !== ''),
    );
    const drawn = await tiles();
    expect(drawn).toHaveLength(newestFirst.length);
    drawn.forEach((tile, index) => {
      const image = newestFirst[index];
      expect(tile).toMatchObject({
        src: image?.thumbnails?.small,
        srcset: `${image?.thumbnails?.small} 256w, ${image?.thumbnails?.medium} 320w`,
        sizes: TILE_SIZES,
        loading: index < EAGER_TILES ? 'eager' : 'lazy',
      });
    });
    // Tiles of about 150 px at DPR 1: the 256w thumbnail, never the original (nor the 320w medium one).
    for (const [index, tile] of drawn.slice(0, 2).entries()) expect(tile.currentSrc).toBe(newestFirst[index]?.thumbnails?.small);
  });

  it('keeps the details view on the original', async () => {
    const first = made.at(-1);
    await page.getByRole('button', { name: first?.prompt }).click();
    const shown = page.getByRole('dialog', { name: 'Image details' }).locator('img').first();
    await shown.waitFor();
    expect(await shown.getAttribute('src')).toBe(first?.r2_url);
    expect(await shown.getAttribute('srcset')).toBeNull();
  });
});
