import fs from 'node:fs';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-call.js';
import { skipWithoutChromium } from './support/chromium.js';
import { shootAt1280And390 } from './support/shots-widths.js';
import { closeAndGuard, openWebSession, type WebSession } from './support/web-session.js';

const KEY = 'igk_web_image_details_admin_key_0123456789';
const skip = skipWithoutChromium();

interface Made {
  id: string;
  prompt: string;
  r2_url: string;
}

/**
 * Issue 19, an image's details as a person uses them: a download named after the prompt, an address of
 * their own (linked, reloaded, left with Back), Previous and Next, Reuse prompt, and the same details from
 * a collection. The images are made through the API first; each step builds on the last.
 */
describe.skipIf(skip)('the image details dialog: downloads, its own address, Previous/Next, Reuse prompt (real server, Chromium)', { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;
  let made: { harbour: Made; forest: Made; castle: Made; fox: Made };
  const fox = 'A Red Fox: "in the snow" / at dawn?';
  const castle = 'Reuse me: a castle on a hill';

  const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(web.origin, KEY, method, path, body);
  const shoot = async (name: string, options: { fullPage?: boolean } = {}) => {
    expect(await shootAt1280And390(page, name, options), `${name} is wider than 390 px`).toBeLessThanOrEqual(0);
  };
  const dialog = () => page.getByRole('dialog', { name: 'Image details' });
  const shows = (prompt: string) => dialog().locator('dd').getByText(prompt, { exact: true }).waitFor();
  const grid = () => page.getByRole('list', { name: 'Images' });
  const path = () => {
    const url = new URL(page.url());
    return url.pathname + url.search;
  };
  // The app changes the address with the History API; playwright learns of it a moment later.
  const at = (expected: string) => page.waitForURL((url) => url.pathname + url.search === expected);

  beforeAll(async () => {
    web = await openWebSession({ env: { ADMIN_API_KEY: KEY }, signInKey: KEY });
    page = web.page;
    // Oldest first: the gallery lists them newest first, fox, castle, forest, harbour.
    const harbour = await call<Made>('POST', '/api/generate', { prompt: 'a calm harbour at noon', model: 'local/procedural', width: 256, height: 256 });
    const forest = await call<Made>('POST', '/api/generate', { prompt: 'a misty forest path', model: 'local/procedural', width: 256, height: 256 });
    const reusable = await call<Made>('POST', '/api/generate', { prompt: castle, model: 'local/procedural', width: 384, height: 256, seed: 7, steps: 6 });
    made = {
      harbour,
      forest,
      castle: reusable,
      fox: await call<Made>('POST', '/api/generate', { prompt: fox, model: 'local/procedural', width: 320, height: 240 }),
    };
  }, 180_000);
  closeAndGuard(() => web);

  it("Download saves a file named after the prompt with the image's bytes, and the page stays in the app", async () => {
    await page.goto(`${web.origin}/gallery`);
    await grid().getByRole('button', { name: fox }).click();
    await shows(fox);
    await at(`/gallery/${made.fox.id}`);
    await page.evaluate(() => Reflect.set(window, 'stillHere', true));

    const saved = page.waitForEvent('download');
    await dialog().getByRole('link', { name: 'Download' }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toBe('a-red-fox-in-the-snow-at-dawn.png');
    const bytes = fs.readFileSync(await download.path());
    expect(bytes.equals(Buffer.from(await (await fetch(made.fox.r2_url)).arrayBuffer()))).toBe(true);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    // Same document, same address, dialog still open.
    expect(await page.evaluate(() => Reflect.get(window, 'stillHere'))).toBe(true);
    await at(`/gallery/${made.fox.id}`);
    expect(await dialog().isVisible()).toBe(true);
  });

  it("falls back to the server's attachment link (?download=<name>) when the image cannot be fetched, still in the app", async () => {
    const filePath = new URL(made.fox.r2_url).pathname;
    const isImageFetch = (request: Request) => request.resourceType() === 'fetch' && new URL(request.url()).pathname === filePath;
    // As a bucket on another origin without CORS would: the script may not read the bytes.
    const theImage = (url: URL) => url.pathname === filePath;
    await page.route(theImage, (route) => (isImageFetch(route.request()) ? route.fulfill({ status: 500, body: 'no' }) : route.fallback()));
    web.guard.expectFailure(500, filePath);
    try {
      const saved = page.waitForEvent('download');
      await dialog().getByRole('link', { name: 'Download' }).click();
      const download = await saved;
      expect(new URL(download.url()).searchParams.get('download')).toBe('a-red-fox-in-the-snow-at-dawn');
      expect(download.suggestedFilename()).toBe('a-red-fox-in-the-snow-at-dawn.png');
      expect(
        fs
          .readFileSync(await download.path())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      expect(await page.evaluate(() => Reflect.get(window, 'stillHere'))).toBe(true);
      await at(`/gallery/${made.fox.id}`);
    } finally {
      await page.unroute(theImage);
    }
  });

  it('opens /gallery/<id> directly with the dialog, keeps it on reload, and Close goes to the gallery with its filters', async () => {
    await page.goto(`${web.origin}/gallery/${made.fox.id}?q=fox`);
    await shows(fox);
    await page.reload();
    await shows(fox);
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
    await at('/gallery?q=fox');
    await page.getByText('1 image matches').waitFor();
    expect(await page.getByLabel('Search').inputValue()).toBe('fox');
  });

  it('gives a picture opened from the grid its own address; Back closes the dialog, keeps the filters and the focus on the picture', async () => {
    await grid().getByRole('button', { name: fox }).click();
    await shows(fox);
    await at(`/gallery/${made.fox.id}?q=fox`);
    await page.goBack();
    await dialog().waitFor({ state: 'detached' });
    await at('/gallery?q=fox');
    await page.waitForFunction(() => document.activeElement?.classList.contains('thumb') === true);
    expect(await page.evaluate(() => document.activeElement?.querySelector('img')?.alt)).toBe(fox);
    // Forward opens it again, as the address says.
    await page.goForward();
    await shows(fox);
    await page.goBack();
    await dialog().waitFor({ state: 'detached' });
  });

  it("moves through the gallery's current list with Previous and Next and the arrow keys; Back still closes the dialog", async () => {
    await page.goto(`${web.origin}/gallery`);
    await page.getByText('4 images').waitFor();
    await grid().getByRole('button', { name: fox }).click();
    await shows(fox);
    await dialog().getByText('1 of 4').waitFor();
    expect(await dialog().getByRole('button', { name: 'Previous image' }).isDisabled()).toBe(true);

    await dialog().getByRole('button', { name: 'Next image' }).click();
    await shows(castle);
    await at(`/gallery/${made.castle.id}`);
    await dialog().getByText('2 of 4').waitFor();
    // The focus stays on Next, so pressing it again (or an arrow key) goes on.
    await page.keyboard.press('ArrowRight');
    await shows('a misty forest path');
    await at(`/gallery/${made.forest.id}`);
    await page.keyboard.press('ArrowLeft');
    await shows(castle);
    await shoot('image-details', { fullPage: false });

    await page.goBack();
    await dialog().waitFor({ state: 'detached' });
    await at('/gallery');
  });

  it('"Reuse prompt" opens Generate with the image\'s prompt, model and settings', async () => {
    await page.goto(`${web.origin}/gallery/${made.castle.id}`);
    await shows(castle);
    await dialog().getByRole('link', { name: 'Reuse prompt' }).click();
    await page.getByRole('heading', { level: 1, name: 'Generate' }).waitFor();
    await at(`/generate?reuse=${made.castle.id}`);
    expect(await page.getByRole('textbox', { name: 'Prompt', exact: true }).inputValue()).toBe(castle);
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('local/procedural');
    expect(await page.getByLabel('Width').inputValue()).toBe('384');
    expect(await page.getByLabel('Height').inputValue()).toBe('256');
    expect(await page.getByLabel('Seed').inputValue()).toBe('7');
    expect(await page.getByLabel('Steps').inputValue()).toBe('6');

    const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/generate');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    expect((await sent).postDataJSON()).toMatchObject({ prompt: castle, model: 'local/procedural', width: 384, height: 256, seed: 7, steps: 6 });
    await page.getByRole('heading', { name: 'Result' }).waitFor();
  });

  it('shows each collection with its cover, the image added last, and a plain tile for an empty one', async () => {
    const full = await call<{ id: string }>('POST', '/api/collections', { name: 'Harbour and forest' });
    for (const image of [made.harbour, made.forest]) await call('POST', `/api/collections/${full.id}/images`, { image_id: image.id });
    await call('POST', '/api/collections', { name: 'Empty for now' });

    await page.goto(`${web.origin}/collections`);
    const item = (name: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });
    await item('Harbour and forest').waitFor();
    expect(await item('Harbour and forest').locator('.collection-cover img').getAttribute('src')).toBe(made.forest.r2_url);
    expect(await item('Empty for now').locator('.collection-cover img').count()).toBe(0);
    expect(await item('Empty for now').locator('.collection-cover-empty').count()).toBe(1);
    // The cover is a second way in for the mouse only: one link per collection for keyboards and screen readers.
    expect(await item('Harbour and forest').getByRole('link').count()).toBe(1);
    await shoot('collections-covers');

    await item('Harbour and forest').locator('.collection-cover').click();
    await page.getByRole('heading', { level: 1, name: 'Harbour and forest' }).waitFor();
    await page.waitForURL((url) => /^\/collections\/coll_/.test(url.pathname));
  });

  it("opens a collection's picture in the same details dialog, on the collection page, with Previous and Next", async () => {
    const here = path();
    const members = page.getByRole('list', { name: 'Images in Harbour and forest' });
    await members.getByRole('button', { name: 'a calm harbour at noon', exact: true }).click();
    await shows('a calm harbour at noon');
    await at(here);
    await dialog().getByRole('link', { name: 'Download' }).waitFor();
    // Two images: one of Previous and Next leads to the other, whichever order the collection lists them in.
    await dialog()
      .getByRole('button', { name: /^(Previous|Next) image$/ })
      .and(page.locator(':enabled'))
      .click();
    await shows('a misty forest path');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await at(here);
  });

  it('offers "Clear filters" when nothing matches, and clearing shows every image again', async () => {
    await page.goto(`${web.origin}/gallery?q=zebra&kind=generated`);
    await page.getByText('0 images match').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText('5 images').waitFor();
    await at('/gallery');
    expect(await page.getByLabel('Search').inputValue()).toBe('');
    expect(await page.getByLabel('Kind').inputValue()).toBe('');
    expect(await grid().getByRole('img').count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0);
  });
});
