import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutChromium } from './support/chromium.js';
import { startEdgeProxy } from './support/edge-proxy.js';
import { DESKTOP, horizontalOverflow, PHONE, screenshotBoth } from './support/screenshots.js';
import { closeAndGuard, openWebSession, type WebSession } from './support/web-session.js';
import { loadedWidth } from './support/loaded-image.js';

/** The header the edge sets; a custom name, so nothing but the proxy below can be what admits the browser. */
const HEADER = 'X-Edge-Client-IP';
const skip = skipWithoutChromium();

/**
 * IP allow-list mode as deployed: the browser talks to an edge (a loopback proxy here) that puts the client
 * address in CLIENT_IP_HEADER; the server admits 127.0.0.1 only. The app asks for no key and shows no key pages.
 */
describe.skipIf(skip)('the web app in IP allow-list mode (behind an edge, real server, Chromium)', { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;

  beforeAll(async () => {
    web = await openWebSession({
      env: { AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: '127.0.0.1', CLIENT_IP_HEADER: HEADER },
      front: (serverUrl) => startEdgeProxy(serverUrl, HEADER, '127.0.0.1'),
    });
    page = web.page;
  }, 180_000);
  closeAndGuard(() => web);

  it('admits only through the edge: the server itself refuses a browser that does not carry the header', async () => {
    const direct = await fetch(`${web.server.url}/`);
    expect([direct.status, await direct.text()]).toEqual([403, 'Forbidden']);
    const config = await fetch(`${web.origin}/app/config.json`);
    expect(await config.json()).toMatchObject({ auth_mode: 'ip_allowlist' });
  });

  it('opens on Generate with no sign-in step, and offers neither API keys nor signing out', async () => {
    await page.goto(`${web.origin}/`);
    await page.getByRole('heading', { level: 1, name: 'Generate' }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getByRole('link').allInnerTexts()).toEqual(['Generate', 'Gallery', 'Collections', 'Templates', 'Batches', 'Analytics']);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await page.goto(`${web.origin}/sign-in`);
    await page.getByRole('heading', { level: 1, name: 'Generate' }).waitFor();
    await page.waitForURL((url) => url.pathname === '/generate');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('generates an image, shows it, and finds it in the gallery', async () => {
    const prompt = 'a harbour at night with city lights';
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill(prompt);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const result = page.getByRole('img', { name: prompt, exact: true });
    await result.waitFor();
    expect(await loadedWidth(result)).toBe(512);
    expect(await result.getAttribute('src')).toMatch(new RegExp(`^${web.origin}/files/generated/`));
    await screenshotBoth(page, 'ip-allowlist-generate');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gallery' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('harbour');
    await page.getByText('1 image matches').waitFor();
    await page.getByRole('list', { name: 'Images' }).getByRole('img', { name: prompt }).waitFor();
    await screenshotBoth(page, 'ip-allowlist-gallery');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  it('loads more of the gallery as you scroll to its end', async () => {
    for (let i = 1; i <= 30; i += 1) {
      const res = await fetch(`${web.origin}/api/generate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ prompt: `scroll test picture ${i}`, model: 'local/procedural', width: 64, height: 64 }),
      });
      expect(res.status).toBe(201);
    }
    // At phone width the first page (24) is far taller than the screen, so nothing more loads until scrolling.
    await page.setViewportSize(PHONE);
    await page.goto(`${web.origin}/gallery`);
    const grid = page.getByRole('list', { name: 'Images' });
    await page.getByText('31 images', { exact: true }).waitFor();
    await grid.getByRole('img', { name: 'scroll test picture 7', exact: true }).waitFor();
    expect(await grid.getByRole('listitem').count()).toBe(24);
    await page.getByRole('button', { name: 'Load more images' }).waitFor();

    await page.getByRole('button', { name: 'Load more images' }).scrollIntoViewIfNeeded();
    await grid.getByRole('img', { name: 'a harbour at night with city lights' }).waitFor();
    expect(await grid.getByRole('listitem').count()).toBe(31);
    expect(await page.getByRole('button', { name: 'Load more images' }).count()).toBe(0);
    await page.setViewportSize(DESKTOP);
  });

  it('answers /keys with an explanation instead of a key form', async () => {
    await page.goto(`${web.origin}/keys`);
    await page.getByText('uses no API keys').waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
  });
});
