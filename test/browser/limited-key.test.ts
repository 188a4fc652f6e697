import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutChromium } from './support/chromium.js';
import { DESKTOP, PHONE } from './support/screenshots.js';
import { PHONE_390 } from './support/shots-widths.js';
import { TABLET_768, shootAtFourWidths } from './support/shots-widths.js';
import { openWebSession, type WebSession } from './support/web-session.js';
import { callApi } from './support/api-call.js';

const ADMIN = 'igk_web_limited_key_admin_key_0123';
const skip = skipWithoutChromium();

/**
 * Issue 35: a key sees only what it can use, and lands where it can act. One tab, several keys in turn (as on a
 * shared machine): an admin signs out on the API keys page, a read-only key signs in and must not land there.
 * Each step builds on the last.
 */
describe.skipIf(skip)(
  'a key with fewer permissions lands where it can act and is offered only what it can do (real server, Chromium)',
  { timeout: 180_000 },
  () => {
    let web: WebSession;
    let page: Page;
    const keys = { reader: '', ci: '', ops: '' };
    let collectionId = '';
    const requests: string[] = [];
    const forbidden: string[] = [];

    const call = <T>(method: string, path: string, body?: unknown): Promise<T> => callApi<T>(web.origin, ADMIN, method, path, body);

    beforeAll(async () => {
      web = await openWebSession({ env: { ADMIN_API_KEY: ADMIN } });
      page = web.page;
      page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
      page.on('response', (response) => {
        if (response.status() === 403) forbidden.push(`${response.request().method()} ${response.url()}`);
      });
      for (const prompt of ['a quiet harbour at dawn', 'a lighthouse in fog'])
        await call('POST', '/api/generate', { prompt, model: 'local/procedural', width: 256, height: 256 });
      const images = await call<{ images: { id: string }[] }>('GET', '/api/images');
      collectionId = (await call<{ id: string }>('POST', '/api/collections', { name: 'Favourites' })).id;
      await call('POST', `/api/collections/${collectionId}/images`, { image_id: images.images[0]?.id });
      keys.reader = (await call<{ key: string }>('POST', '/api/keys', { name: 'reader', permissions: ['read'] })).key;
      keys.ci = (await call<{ key: string }>('POST', '/api/keys', { name: 'ci', permissions: ['read', 'generate'] })).key;
      keys.ops = (await call<{ key: string }>('POST', '/api/keys', { name: 'ops', permissions: ['manage'] })).key;
    }, 180_000);
    afterAll(async () => {
      await web?.close();
    });
    afterEach(async () => {
      await page.setViewportSize(DESKTOP);
      expect(web.guard.offMachine, 'requests off the machine').toEqual([]);
      expect(web.guard.errors, 'console errors').toEqual([]);
      expect(forbidden, '403 answers').toEqual([]);
    });

    const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
    const nav = () => page.getByRole('navigation', { name: 'Main' });
    const goTo = async (link: string, title = link) => {
      await nav().getByRole('link', { name: link, exact: true }).click();
      await heading(title);
    };
    /** Signs in on the sign-in page the app is showing (the tab's memory of pages is kept, as a real tab keeps it). */
    const signIn = async (key: string, lands: string) => {
      await heading('Sign in');
      await page.getByLabel('API key').fill(key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await heading(lands);
    };
    const signOut = async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await heading('Sign in');
    };
    const current = () => nav().locator('a[aria-current="page"]').allInnerTexts();
    const path = () => new URL(page.url()).pathname;

    it('a read-only key signing in after an admin signed out on API keys lands on the gallery, highlighted in the menu', async () => {
      await page.goto(`${web.origin}/`);
      await signIn(ADMIN, 'Generate');
      await goTo('Gallery');
      await goTo('API keys');
      await signOut();
      await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.get('next') === '/keys');

      const before = requests.length;
      await signIn(keys.reader, 'Gallery');
      expect(path()).toBe('/gallery');
      expect(await current()).toEqual(['Gallery']);
      // Only what it can use: Generate would only show a form it cannot send, API keys a refusal.
      expect(await nav().getByRole('link').allInnerTexts()).toEqual(['Gallery', 'Collections', 'Templates', 'Batches', 'Analytics']);
      expect(requests.slice(before).filter((request) => request.includes('/api/keys'))).toEqual([]);
      expect(await page.getByRole('link', { name: 'imagegate home' }).getAttribute('href')).toBe('/gallery');
      await page.getByRole('list', { name: 'Images' }).getByRole('img').first().waitFor();
      const overflow = await shootAtFourWidths(page, 'limited-key-gallery');
      expect(overflow).toEqual({ 1280: 0, 768: 0, 390: 0, 360: 0 });
    });

    it('has no selection checkboxes in the gallery, and no Edit, Reuse prompt, Delete or Add to collection in an image, only one short line', async () => {
      const grid = page.getByRole('list', { name: 'Images' });
      expect(await grid.getByRole('checkbox').count()).toBe(0);
      await grid.getByRole('button', { name: 'a quiet harbour at dawn' }).click();
      const dialog = page.getByRole('dialog', { name: 'Image details' });
      await dialog.getByRole('link', { name: 'Download' }).waitFor();
      expect(await dialog.getByRole('link', { name: /^(Edit|Reuse prompt)$/ }).count()).toBe(0);
      expect(await dialog.getByRole('button', { name: /^(Delete|Add to collection)$/ }).count()).toBe(0);
      const why = dialog.getByText('Delete and collections need a manage key.', { exact: true });
      await why.waitFor();
      expect(await dialog.getByText('This key cannot', { exact: false }).count()).toBe(0);
      await shootAtFourWidths(page, 'limited-key-image', { fullPage: false });
      try {
        // One line; the narrowest phone's dialog may wrap it once, never into a block.
        for (const [size, most] of [
          [DESKTOP, 1],
          [TABLET_768, 1],
          [PHONE_390, 1],
          [PHONE, 2],
        ] as const) {
          await page.setViewportSize(size);
          expect(await lines(why), `the note at ${size.width} px`).toBeLessThanOrEqual(most);
        }
      } finally {
        await page.keyboard.press('Escape');
      }
      await dialog.waitFor({ state: 'detached' });
    });

    it('sees the templates without Use (nor the reason a sample cannot be used) nor a New template panel, one line instead', async () => {
      await goTo('Templates');
      const samples = page.getByRole('region', { name: 'Samples' });
      await samples.getByRole('heading', { name: /Sunset coast/ }).waitFor();
      expect(await page.getByRole('button', { name: /^Use / }).count()).toBe(0);
      expect(await samples.getByText('is not configured here', { exact: false }).count()).toBe(0);
      // No New template panel that could only refuse: one line says what it takes.
      await page.getByText('Creating and changing templates need a manage key.', { exact: true }).waitFor();
      expect(await page.getByRole('region', { name: 'New template' }).count()).toBe(0);
      await shootAtFourWidths(page, 'limited-key-templates');
    });

    it('is told in one line that Generate needs the generate permission, with the way to its gallery; `/` opens the gallery', async () => {
      await page.goto(`${web.origin}/generate`);
      await heading('Generate');
      await page.getByText('This key cannot generate (it has read only): sign in with a key that has the generate permission.').waitFor();
      expect(await page.getByRole('textbox', { name: 'Prompt' }).count()).toBe(0);
      await shootAtFourWidths(page, 'limited-key-generate');
      await page.getByRole('link', { name: 'Go to Gallery' }).click();
      await heading('Gallery');

      await page.goto(`${web.origin}/`);
      await heading('Gallery');
      await page.waitForURL((url) => url.pathname === '/gallery');
    });

    it('lands on the last page this tab showed that it may see: a collection the admin had open before API keys', async () => {
      await signOut();
      await signIn(ADMIN, 'Gallery');
      await goTo('Collections');
      await page.getByRole('link', { name: 'Favourites' }).click();
      await heading('Favourites');
      await goTo('API keys');
      await signOut();
      await signIn(keys.reader, 'Favourites');
      expect(path()).toBe(`/collections/${collectionId}`);
      expect(await current()).toEqual(['Collections']);
    });

    it('a key that generates but does not manage keeps Edit, Reuse prompt and Use, still without checkboxes', async () => {
      await signOut();
      await signIn(keys.ci, 'Favourites');
      await goTo('Gallery');
      const grid = page.getByRole('list', { name: 'Images' });
      await grid.getByRole('button', { name: 'a lighthouse in fog' }).waitFor();
      expect(await grid.getByRole('checkbox').count()).toBe(0);
      await grid.getByRole('button', { name: 'a lighthouse in fog' }).click();
      const dialog = page.getByRole('dialog', { name: 'Image details' });
      await dialog.getByRole('link', { name: 'Edit' }).waitFor();
      expect(await dialog.getByRole('link', { name: 'Reuse prompt' }).count()).toBe(1);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await goTo('Templates');
      expect(await page.getByRole('region', { name: 'Samples' }).getByRole('button', { name: 'Use Sunset coast' }).isEnabled()).toBe(true);
    });

    it('a manage key has checkboxes; a key it cannot revoke says so in one short line, the reason in a note under the table', async () => {
      await signOut();
      await signIn(keys.ops, 'Templates');
      await goTo('Gallery');
      await page.getByRole('list', { name: 'Images' }).getByRole('checkbox', { name: 'Select a lighthouse in fog' }).waitFor();

      await goTo('API keys');
      const row = (name: RegExp) => page.getByRole('row', { name });
      await row(/^ci /).waitFor();
      const notes = page.getByRole('list', { name: 'Why some keys cannot be revoked' });
      expect(await notes.getByRole('listitem').allInnerTexts()).toEqual([
        'Revoke is not offered for ops because a key cannot revoke itself: use another key with the manage permission.',
        'Revoke is not offered for admin (ADMIN_API_KEY) because it is the ADMIN_API_KEY key: change or unset ADMIN_API_KEY and restart to retire it.',
      ]);
      const own = row(/^ops /).getByRole('link', { name: /^Not revocable, see note/ });
      const admin = row(/^admin \(ADMIN_API_KEY\)/).getByRole('link', { name: /^Not revocable, see note/ });
      expect(await own.getAttribute('href')).toBe('#revoke-note-1');
      expect(await admin.getAttribute('href')).toBe('#revoke-note-2');
      expect(await admin.getAttribute('title')).toBe(
        'Revoke is not offered because it is the ADMIN_API_KEY key: change or unset ADMIN_API_KEY and restart to retire it.',
      );
      expect(await page.getByRole('button', { name: /^Revoke (admin|ops)/ }).count()).toBe(0);
      for (const size of [DESKTOP, PHONE_390, PHONE]) {
        await page.setViewportSize(size);
        expect(await lines(own), `ops's note at ${size.width} px`).toBe(1);
        expect(await lines(admin), `admin's note at ${size.width} px`).toBe(1);
      }
      // The row of a key that cannot be revoked is no taller than one that can (it was six lines of reason).
      const height = async (name: RegExp) => (await row(name).boundingBox())?.height ?? Infinity;
      expect(await height(/^admin \(ADMIN_API_KEY\)/)).toBeLessThanOrEqual(await height(/^ci /));
      const overflow = await shootAtFourWidths(page, 'limited-key-keys');
      expect(overflow).toEqual({ 1280: 0, 768: 0, 390: 0, 360: 0 });
    });
  },
);

/** How many lines an element's text takes on screen: the line boxes of its text, a raised note number (sup) and hidden words aside. */
function lines(locator: ReturnType<Page['getByText']>): Promise<number> {
  return locator.evaluate((element) => {
    const tops = new Set<number>();
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.parentElement?.closest('sup, .visually-hidden') !== null) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
    }
    return tops.size;
  });
}
