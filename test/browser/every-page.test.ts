import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_PAGES, type AppPage } from '../../src/http/routes/system/app-pages.js';
import { skipWithoutChromium } from './support/chromium.js';
import { shootAtFourWidths } from './support/shots-widths.js';
import { openWebSession, type WebSession } from './support/web-session.js';
import { callApi } from './support/api-call.js';

const KEY = 'igk_web_every_page_admin_key_0123456789';
const skip = skipWithoutChromium();

/**
 * Every page the server serves (APP_PAGES, so a new page is shot without touching this file), with content in it,
 * at 1280, 768, 390 and 360 px: `test-results/screenshots/page-<name>-<width>.png`, for a person to look at after a
 * change to the web app (issue 35 asks for it), and none wider than its screen.
 */
describe.skipIf(skip)('every page of the web app at four widths (real server, Chromium)', { timeout: 300_000 }, () => {
  let web: WebSession;
  let page: Page;
  const ids: Record<string, string> = {};

  const call = <T>(method: string, path: string, body?: unknown): Promise<T> => callApi<T>(web.origin, KEY, method, path, body);

  beforeAll(async () => {
    web = await openWebSession({ env: { ADMIN_API_KEY: KEY } });
    page = web.page;
    // Something on every page: images, a collection holding them, a finished batch, a generation, a template.
    for (const prompt of ['a lighthouse in fog', 'a quiet harbour at dawn', 'a snowy field at noon']) {
      const image = await call<{ id: string }>('POST', '/api/generate', { prompt, model: 'local/procedural', width: 256, height: 256 });
      ids.image ??= image.id;
    }
    const generations = await call<{ generations: { id: string }[] }>('GET', '/api/generations?limit=1');
    ids.generation = generations.generations[0]?.id ?? '';
    const collection = await call<{ id: string }>('POST', '/api/collections', { name: 'Harbours', description: 'Coast at dawn' });
    ids.collection = collection.id;
    await call('POST', `/api/collections/${collection.id}/images`, { image_id: ids.image });
    const batch = await call<{ id: string }>('POST', '/api/batch/create', {
      name: 'Winter',
      prompts: ['a frozen lake', 'a pine forest'],
      model: 'local/procedural',
      width: 128,
      height: 128,
    });
    ids.batch = batch.id;
    await call('POST', '/api/templates', { name: 'Product shot', model: 'local/procedural', default_prompt: 'a product on white', parameters: {} });
  }, 240_000);
  afterAll(async () => {
    await web?.close();
  });
  afterEach(() => {
    expect(web.guard.offMachine, 'requests off the machine').toEqual([]);
    expect(web.guard.errors, 'console errors').toEqual([]);
  });

  /** Which record each page with an id shows. */
  const shown: Partial<Record<AppPage, () => string | undefined>> = {
    '/gallery/:id': () => ids.image,
    '/collections/:id': () => ids.collection,
    '/batches/:id': () => ids.batch,
    '/generations/:id': () => ids.generation,
  };
  const address = (route: AppPage): string => route.replace(':id', shown[route]?.() ?? '');
  const nameOf = (route: AppPage): string =>
    route === '/'
      ? 'home'
      : route
          .slice(1)
          .replace(/\/:id$/, '-one')
          .replaceAll('/', '-');

  it('shows the sign-in page to a visitor without a key, fitting every width', async () => {
    await page.goto(`${web.origin}/sign-in`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const overflow = await shootAtFourWidths(page, 'page-sign-in');
    expect(overflow).toEqual({ 1280: 0, 768: 0, 390: 0, 360: 0 });
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/sign-in');
  });

  for (const route of APP_PAGES.filter((each) => each !== '/sign-in')) {
    it(`shows ${route} with its content, fitting every width`, async () => {
      await page.goto(`${web.origin}${address(route)}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // What loads after the heading (lists, images, charts) has arrived once nothing is busy any more.
      await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null);
      const overflow = await shootAtFourWidths(page, `page-${nameOf(route)}`, {
        // The details dialog is shot as the screen shows it: it scrolls inside itself.
        fullPage: route !== '/gallery/:id',
      });
      expect(overflow, `${route} is wider than its screen`).toEqual({ 1280: 0, 768: 0, 390: 0, 360: 0 });
    });
  }
});
