import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutChromium } from './support/chromium.js';
import { DESKTOP, SCREENSHOT_DIR } from './support/screenshots.js';
import { openWebSession, type WebSession } from './support/web-session.js';
import { callApi } from './support/api-call.js';

const ADMIN = 'igk_web_permissions_admin_key_0123';
const PHONE_390 = { width: 390, height: 844 };
const skip = skipWithoutChromium();

/**
 * The app asks GET /api/me what the key may do, and shows only what will work: each control a key cannot
 * use is left out (with the reason in its place where that teaches something), so no page ever meets a 403. Then the narrow
 * screen: a Menu button, keys as cards, and a chart whose last label fits. Each step builds on the last.
 */
describe.skipIf(skip)('the web app shows each key only what it may do (real server, Chromium)', { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;
  const keys = { reader: '', ops: '' };
  /** Every request the page made, as `METHOD /path`, and every 403 it was answered. */
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
    const collection = await call<{ id: string }>('POST', '/api/collections', { name: 'Favourites' });
    await call('POST', `/api/collections/${collection.id}/images`, { image_id: images.images[0]?.id });
    keys.reader = (await call<{ key: string }>('POST', '/api/keys', { name: 'reader', permissions: ['read'] })).key;
    keys.ops = (await call<{ key: string }>('POST', '/api/keys', { name: 'ops', permissions: ['manage'] })).key;
    await call('POST', '/api/keys', { name: 'ci', permissions: ['read', 'generate'] });
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
  /** A fresh tab's sign-in: the key lands on its first page (the gallery for a key that cannot generate). */
  const signInAs = async (key: string, lands: string) => {
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${web.origin}/sign-in`);
    await heading('Sign in');
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(lands);
  };
  /** The page at 1280 px and at 390 px (`<name>-1280.png`, `<name>-390.png`); nothing wider than the phone. */
  const shoot = async (name: string, options: { fullPage?: boolean } = {}) => {
    for (const size of [DESKTOP, PHONE_390]) {
      await page.setViewportSize(size);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`), fullPage: options.fullPage ?? true });
      if (size === PHONE_390)
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name} at 390 px`).toBeLessThanOrEqual(
          0,
        );
    }
    await page.setViewportSize(DESKTOP);
  };
  const refusal = (action: string) => `This key cannot ${action} (it has read only): sign in with a key that has the manage permission.`;

  describe('a read-only key', () => {
    it('signs in with one question (GET /api/me), never tries /api/keys, lands on the gallery, and the menu offers what it can use', async () => {
      await page.goto(`${web.origin}/`);
      await signInAs(keys.reader, 'Gallery');
      expect(requests).toContain('GET /api/me');
      expect(requests.filter((request) => request.includes('/api/keys'))).toEqual([]);
      expect(await nav().getByRole('link').allInnerTexts()).toEqual(['Gallery', 'Collections', 'Templates', 'Batches', 'Analytics']);
      expect(await page.locator('.key-identity').textContent()).toBe('reader: read only');
      // Wide screens have room for the whole menu: no Menu button there.
      expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    });

    it('opening Generate anyway, finds the reason in one line instead of a form it cannot send', async () => {
      await page.goto(`${web.origin}/generate`);
      await heading('Generate');
      await page.getByText('This key cannot generate (it has read only): sign in with a key that has the generate permission.').waitFor();
      expect(await page.getByRole('button', { name: 'Generate', exact: true }).count()).toBe(0);
      expect(await page.getByRole('textbox', { name: 'Prompt', exact: true }).count()).toBe(0);
      await shoot('permissions-read-generate');
    });

    it('finds no Edit, Reuse prompt, Delete, Add to collection nor selection checkboxes in the gallery, and one line on why', async () => {
      await page.getByRole('link', { name: 'Go to Gallery' }).click();
      await heading('Gallery');
      const grid = page.getByRole('list', { name: 'Images' });
      // The model filter offers only models that have images here (from the usage report), not the whole catalogue.
      await page.getByLabel('Model').locator('option', { hasText: 'Procedural (offline)' }).waitFor({ state: 'attached' });
      expect(await page.getByLabel('Model').locator('option').allInnerTexts()).toEqual(['All models', 'Procedural (offline)']);
      await grid.getByRole('button', { name: 'a quiet harbour at dawn' }).click();
      const dialog = page.getByRole('dialog', { name: 'Image details' });
      await dialog.getByText('Delete and collections need a manage key.', { exact: true }).waitFor();
      expect(await dialog.getByRole('button', { name: /^(Delete|Add to collection)$/ }).count()).toBe(0);
      expect(await dialog.getByRole('link', { name: /^(Edit|Reuse prompt)$/ }).count()).toBe(0);
      await shoot('permissions-read-image', { fullPage: false });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Everything done to a selection needs manage: no checkboxes, so no bar of refusals either.
      expect(await grid.getByRole('checkbox').count()).toBe(0);
      await shoot('permissions-read-gallery');
    });

    it('cannot create, change or delete collections, and is told so', async () => {
      await goTo('Collections');
      await page.getByText(refusal('create collections')).waitFor();
      expect(await page.getByRole('button', { name: 'Create collection' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Favourites' }).click();
      await heading('Favourites');
      await page.getByRole('list', { name: 'Images in Favourites' }).getByRole('img').first().waitFor();
      await page.getByText(refusal('change or delete collections')).waitFor();
      expect(await page.getByRole('button', { name: /^(Remove|Delete collection)/ }).count()).toBe(0);
      await shoot('permissions-read-collection');
    });

    it('sees templates but cannot create one, nor Use one (it would open a form it cannot send)', async () => {
      await goTo('Templates');
      await page.getByText('Creating and changing templates need a manage key.', { exact: true }).waitFor();
      expect(await page.getByRole('region', { name: 'New template' }).count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Your templates' }).getByText('None yet.', { exact: true }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Create template' }).count()).toBe(0);
      const samples = page.getByRole('region', { name: 'Samples' });
      await samples.getByRole('heading', { name: /Sunset coast/ }).waitFor();
      expect(await page.getByRole('button', { name: /^Use / }).count()).toBe(0);
      await shoot('permissions-read-templates');
    });

    it('cannot start a batch nor read the webhook secret, and is told so', async () => {
      await goTo('Batches');
      await page.getByText('This key cannot start batches (it has read only): sign in with a key that has the generate permission.').waitFor();
      await page.getByText(refusal('read the webhook signing secret')).waitFor();
      expect(await page.getByRole('button', { name: /^(Start batch|Reveal signing secret)$/ }).count()).toBe(0);
      await shoot('permissions-read-batches');
    });

    it('is told the API keys page needs manage, without the page asking /api/keys', async () => {
      await page.goto(`${web.origin}/keys`);
      await heading('API keys');
      await page.getByText(refusal('manage API keys')).waitFor();
      expect(requests.filter((request) => request.includes('/api/keys'))).toEqual([]);
    });
  });

  describe('a manage key', () => {
    it('lists the models it can use first, then the others in disabled groups by provider naming the setting that enables them; shut-down ones not at all', async () => {
      await signInAs(keys.ops, 'Generate');
      expect(await nav().getByRole('link').allInnerTexts()).toEqual(['Generate', 'Gallery', 'Collections', 'Templates', 'Batches', 'Analytics', 'API keys']);
      const optgroups = page.getByLabel('Model', { exact: true }).locator('optgroup');
      // The catalogue arrives after the page is drawn: wait for its second group before reading them.
      await optgroups.nth(1).waitFor({ state: 'attached' });
      const groups = await optgroups.evaluateAll((list) =>
        list.map((group) => ({
          label: (group as HTMLOptGroupElement).label,
          disabled: (group as HTMLOptGroupElement).disabled,
          options: [...group.querySelectorAll('option')].map((option) => option.textContent),
        })),
      );
      // By provider: the one this server runs first, then each of the others in a disabled group.
      expect(groups[0]).toEqual({ label: 'Offline', disabled: false, options: ['Procedural (offline) — free, fast'] });
      const others = groups.slice(1);
      expect(others.map(({ label }) => label)).toEqual(expect.arrayContaining(['OpenAI: not configured here', 'Black Forest Labs: not configured here']));
      expect(others.every(({ label, disabled }) => disabled && label.endsWith(': not configured here'))).toBe(true);
      expect(others.find(({ label }) => label.startsWith('OpenAI:'))?.options).toContain(
        'GPT Image 2 — $0.0527 per image, slow (set OPENAI_API_KEY to enable provider openai)',
      );
      expect(await page.locator('option[value="openai/gpt-image-1"]').count()).toBe(0);
    });

    it('cannot use a sample whose model is not configured here, and is told why', async () => {
      await goTo('Templates');
      const samples = page.getByRole('region', { name: 'Samples' });
      expect(await samples.getByRole('button', { name: 'Use Sunset coast' }).isEnabled()).toBe(true);
      const product = samples.getByRole('button', { name: 'Use Product shot (FLUX schnell)' });
      expect(await product.isDisabled()).toBe(true);
      const why = await page.locator(`#${(await product.getAttribute('aria-describedby')) ?? 'none'}`).textContent();
      expect(why).toMatch(/^FLUX.* is not configured here: .*CLOUDFLARE_API_TOKEN/);
    });

    it('cannot press Generate for a model that is not configured here, and is told which setting enables it', async () => {
      await page.goto(`${web.origin}/generate?template=tmpl_sample_product_shot`);
      await heading('Generate');
      expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('@cf/black-forest-labs/flux-1-schnell');
      expect(await page.getByRole('button', { name: 'Generate', exact: true }).isDisabled()).toBe(true);
      expect(await page.locator('#gen-blocked').textContent()).toMatch(/^FLUX.* is not configured here: .*CLOUDFLARE_API_TOKEN/);
      await shoot('permissions-unavailable-model');
    });

    it('is not offered Revoke for the ADMIN_API_KEY key nor for itself, each with the reason in a note; other keys keep it', async () => {
      await goTo('API keys');
      const row = (name: RegExp) => page.getByRole('row', { name });
      await row(/^ci /).waitFor();
      expect(
        await row(/^admin \(ADMIN_API_KEY\)/)
          .getByRole('link', { name: 'Not revocable, see note 2' })
          .getAttribute('href'),
      ).toBe('#revoke-note-2');
      expect(await row(/^ops /).getByRole('link', { name: 'Not revocable, see note 1' }).getAttribute('href')).toBe('#revoke-note-1');
      const notes = page.getByRole('list', { name: 'Why some keys cannot be revoked' });
      await notes
        .getByText(
          'Revoke is not offered for admin (ADMIN_API_KEY) because it is the ADMIN_API_KEY key: change or unset ADMIN_API_KEY and restart to retire it.',
        )
        .waitFor();
      await notes.getByText('Revoke is not offered for ops because a key cannot revoke itself: use another key with the manage permission.').waitFor();
      expect(await page.getByRole('button', { name: /^Revoke (admin|ops)/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Revoke ci' }).isVisible()).toBe(true);
      await shoot('permissions-keys');
    });

    it('shows the keys as cards at 390 px: nothing scrolls sideways and Revoke is on screen', async () => {
      await page.setViewportSize(PHONE_390);
      const table = page.getByRole('region', { name: 'API keys' });
      expect(await table.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
      expect(await page.getByRole('row', { name: /^ci / }).evaluate((element) => getComputedStyle(element).display)).toBe('block');
      const revoke = await page.getByRole('button', { name: 'Revoke ci' }).boundingBox();
      expect(revoke).not.toBeNull();
      expect((revoke?.x ?? -1) >= 0 && (revoke?.x ?? 0) + (revoke?.width ?? 0) <= PHONE_390.width).toBe(true);
    });
  });

  describe('at 390 px', () => {
    it('has a one-row header with a Menu button that opens and closes the menu from the keyboard', async () => {
      await page.setViewportSize(PHONE_390);
      const button = page.getByRole('button', { name: 'Menu' });
      const brand = await page.getByRole('link', { name: 'imagegate home' }).boundingBox();
      const menu = await button.boundingBox();
      expect(Math.abs((brand?.y ?? 0) + (brand?.height ?? 0) / 2 - ((menu?.y ?? 100) + (menu?.height ?? 0) / 2))).toBeLessThan(4);
      expect((await page.locator('header.top').boundingBox())?.height).toBeLessThan(72);
      expect(await nav().isVisible()).toBe(false);
      expect(await button.getAttribute('aria-expanded')).toBe('false');

      await button.focus();
      await page.keyboard.press('Enter');
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      await nav().getByRole('link', { name: 'Gallery' }).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'permissions-menu-open-390.png') });
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Generate');
      await page.keyboard.press('Escape');
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Menu');

      await page.keyboard.press('Enter');
      await nav().getByRole('link', { name: 'Analytics' }).click();
      await heading('Analytics');
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      await shoot('permissions-menu-closed');
    });

    it('keeps the last day label of each analytics chart inside the chart', async () => {
      await page.setViewportSize(PHONE_390);
      const charts = page.locator('.chart-box');
      await charts.first().locator('text.axis-label').last().waitFor();
      // The charts draw at their box's width, measured after the resize.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const overhang = await charts.evaluateAll((boxes) =>
        boxes.map((box) => {
          const labels = [...box.querySelectorAll<SVGTextElement>('text.axis-label')];
          const last = labels[labels.length - 1];
          return last === undefined ? 1 : last.getBoundingClientRect().right - box.getBoundingClientRect().right;
        }),
      );
      expect(overhang).toHaveLength(2);
      for (const value of overhang) expect(value).toBeLessThanOrEqual(0);
      await shoot('permissions-analytics');
    });
  });
});
