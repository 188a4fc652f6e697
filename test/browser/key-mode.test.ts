import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/test-support/webhook-receiver.js';
import { startWorkersAiFake } from '../../src/adapters/providers/workers-ai/workers-ai.fake.js';
import { skipWithoutChromium } from './support/chromium.js';
import { screenshotBoth, horizontalOverflow } from './support/screenshots.js';
import { openWebSession, type WebSession } from './support/web-session.js';
import { loadedWidth } from './support/loaded-image.js';

const KEY = 'igk_web_e2e_admin_key_0123456789';
const skip = skipWithoutChromium();

/** One browser session through the whole app, in the order a person would use it; each step builds on the last. */
describe.skipIf(skip)('the web app in key mode (real server, Chromium)', { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;
  let receiver: WebhookReceiver;
  let workersAi: Awaited<ReturnType<typeof startWorkersAiFake>>;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    // A priced model besides the free offline one, so costs and the stacking by model have something to show.
    workersAi = await startWorkersAiFake();
    web = await openWebSession({
      env: {
        ADMIN_API_KEY: KEY,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        BATCH_CONCURRENCY: '2',
        CLOUDFLARE_ACCOUNT_ID: 'acct_e2e',
        CLOUDFLARE_API_TOKEN: 'token_e2e',
        CLOUDFLARE_API_BASE_URL: workersAi.baseUrl,
      },
    });
    page = web.page;
  }, 180_000);
  afterAll(async () => {
    await web?.close();
    await receiver?.close();
    await workersAi?.close();
  });
  afterEach(async () => {
    // A step that failed with the page's clock paused must not leave the next steps waiting on frozen timers.
    await web.page.clock.resume().catch(() => undefined);
    expect(web.guard.offMachine, 'requests off the machine').toEqual([]);
    expect(web.guard.errors, 'console errors').toEqual([]);
  });

  /** The API as a script would call it, for setting up data quickly. */
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${web.origin}${path}`, {
      method,
      headers: { Authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as T;
  };
  const shoot = async (name: string, options: { fullPage?: boolean } = {}) => {
    await screenshotBoth(page, name, options);
    expect(await horizontalOverflow(page), `${name} is wider than 360 px`).toBeLessThanOrEqual(0);
  };
  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const goTo = async (link: string, title = link) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
    await heading(title);
  };
  const loaded = (alt: string) => loadedWidth(page.getByRole('img', { name: alt, exact: true }).first());

  it('asks for a key, says what the API says about a wrong one, and signs in with the right one', async () => {
    await page.goto(`${web.origin}/gallery`);
    await heading('Sign in');
    // The address changes just after the page renders (history.replaceState in an effect).
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await shoot('sign-in');

    web.guard.expectFailure(401, '/api/me');
    await page.getByLabel('API key').fill('igk_live_not_a_real_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const error = page.locator('#api-key-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Invalid API key: the API key is unknown, revoked or expired');
    expect(await page.getByLabel('API key').getAttribute('aria-describedby')).toContain('api-key-error');

    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Gallery');
    expect(page.url()).not.toContain(KEY);
    expect(await page.evaluate(() => sessionStorage.getItem('imagegate.apiKey'))).toBe(KEY);
  });

  it('shows each model with its cost, speed and availability, says which settings enable an unavailable one, and leaves out shut-down ones', async () => {
    await goTo('Generate');
    const picker = page.getByLabel('Model', { exact: true });
    // Not configured here: in a disabled group, so it cannot be chosen (test/browser/permissions.test.ts has more).
    expect(await picker.locator('optgroup[disabled] option[value="openai/gpt-image-2"]').textContent()).toBe(
      'GPT Image 2 — $0.0527 per image, slow (set OPENAI_API_KEY to enable provider openai)',
    );
    expect(await picker.locator('option[value="local/procedural"]').textContent()).toBe('Procedural (offline) — free, fast');
    // The API still lists gpt-image-1 (old images name it); its provider shut it down, so nothing offers it.
    expect(await picker.locator('option[value="openai/gpt-image-1"]').count()).toBe(0);
  });

  it('refuses a too-short prompt with the API words under the Prompt box, then generates and shows the image', async () => {
    await page.getByLabel('Model', { exact: true }).selectOption('local/procedural');
    web.guard.expectFailure(400, '/api/generate');
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('hi');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.locator('#gen-prompt-error').waitFor();
    expect(await page.locator('#gen-prompt-error').textContent()).toBe('prompt must be at least 3 characters');

    const prompt = 'a lighthouse on a cliff at sunset';
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill(prompt);
    await page.getByLabel('Width').fill('384');
    await page.getByLabel('Height').fill('256');
    await page.getByLabel('Seed').fill('42');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByRole('heading', { name: 'Result' }).waitFor();
    expect(await loaded(prompt)).toBe(384);
    const facts = await page.locator('.facts').innerText();
    expect(facts).toContain('local/procedural');
    expect(facts).toContain('$0.00');
    expect(facts).toContain('42');
    const download = page.getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('href')).toMatch(/\/files\/generated\/img_.*\.png$/);

    await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('a lighthouse on a cliff at night');
    await page.getByRole('button', { name: 'Generate again with this seed' }).click();
    await page.getByRole('img', { name: 'a lighthouse on a cliff at night' }).waitFor();
    expect(await page.locator('.facts').innerText()).toContain('42');
    await shoot('generate');
  });

  it('shows the gallery newest first and narrows it as you type in Search', async () => {
    for (const prompt of [
      'a red fox in the snow',
      'a blue whale in a calm ocean',
      'a red barn at dusk',
      'a desert city at noon',
      'a forest lake under a full moon',
      'green hills and clouds',
    ]) {
      await call('POST', '/api/generate', { prompt, model: 'local/procedural', width: 320, height: 320 });
    }
    await goTo('Gallery');
    const grid = page.getByRole('list', { name: 'Images' });
    await grid.getByRole('img', { name: 'green hills and clouds' }).waitFor();
    expect(await grid.getByRole('img').first().getAttribute('alt')).toBe('green hills and clouds');
    expect(await grid.getByRole('img').count()).toBe(8);
    await shoot('gallery');

    await page.getByRole('searchbox', { name: 'Search' }).fill('RED');
    await page.getByText('2 images match').waitFor();
    expect(await grid.getByRole('img').evaluateAll((images) => images.map((image) => image.getAttribute('alt')))).toEqual([
      'a red barn at dusk',
      'a red fox in the snow',
    ]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('RED');
    await page.reload();
    await page.getByText('2 images match').waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByText('8 images', { exact: true }).waitFor();
  });

  it('opens an image for its details, copies its URL, and deletes with a few seconds to undo', async () => {
    const grid = page.getByRole('list', { name: 'Images' });
    await grid.getByRole('button', { name: 'a red barn at dusk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Image details' });
    await dialog.waitFor();
    const details = await dialog.locator('dl').innerText();
    for (const text of ['a red barn at dusk', 'local/procedural', 'width 320', '$0.00']) expect(details).toContain(text);
    await dialog.getByRole('button', { name: 'Copy URL' }).click();
    await dialog.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/files\/generated\/img_.*\.png$/);
    await shoot('image-details', { fullPage: false });

    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(new URL(request.url()).pathname);
    });
    // The page's timers stand still while paused, so the undo window lasts as long as the test needs and
    // then passes at once (runFor), whatever the machine's speed.
    const pause = async () => page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
    const notices = page.getByRole('region', { name: 'Notifications' });

    // Undo: the image comes back, and no DELETE is sent for it even once the undo time has passed.
    await pause();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await grid.getByRole('img', { name: 'a red barn at dusk' }).waitFor({ state: 'detached' });
    await notices.getByRole('button', { name: 'Undo' }).click();
    await grid.getByRole('img', { name: 'a red barn at dusk' }).waitFor();
    await page.clock.runFor(10_000);
    await page.clock.resume();
    expect(deletes).toEqual([]);

    // No undo: when the time is up the DELETE goes out, the notice goes, and the server has deleted it.
    await grid.getByRole('button', { name: 'green hills and clouds' }).click();
    await dialog.waitFor();
    await pause();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const notice = notices.getByText(/Deleted “green hills and clouds”/);
    await notice.waitFor();
    await page.clock.runFor(10_000);
    await page.clock.resume();
    await notice.waitFor({ state: 'detached' });
    expect(deletes).toHaveLength(1);
    const left = await call<{ images: { prompt: string }[] }>('GET', '/api/images?limit=100');
    expect(left.images.map((image) => image.prompt)).not.toContain('green hills and clouds');
    expect(left.images.map((image) => image.prompt)).toContain('a red barn at dusk');
  });

  it('creates a collection, adds selected images to it in bulk, opens it and removes one', async () => {
    await goTo('Collections');
    await page.getByLabel('Name').fill('Moodboard');
    await page.getByLabel('Description').fill('warm light and water');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('link', { name: 'Moodboard' }).waitFor();
    await shoot('collections');

    await goTo('Gallery');
    const grid = page.getByRole('list', { name: 'Images' });
    await grid.getByRole('checkbox', { name: 'Select a red fox in the snow' }).check();
    await grid.getByRole('checkbox', { name: 'Select a blue whale in a calm ocean' }).check();
    const bulk = page.getByRole('region', { name: 'Selected images' });
    await bulk.getByText('2 images selected').waitFor();
    await bulk.getByLabel('Collection').selectOption({ label: 'Moodboard' });
    await bulk.getByRole('button', { name: 'Add to collection' }).click();
    await page.getByRole('status').getByText('Added 2 images to Moodboard.').waitFor();
    expect(await bulk.count()).toBe(0);

    await goTo('Collections');
    await page.getByRole('link', { name: 'Moodboard' }).click();
    await heading('Moodboard');
    const members = page.getByRole('list', { name: 'Images in Moodboard' });
    await members.getByRole('img', { name: 'a red fox in the snow' }).waitFor();
    expect(await members.getByRole('img').count()).toBe(2);
    await shoot('collection');
    await members.getByRole('button', { name: 'Remove a red fox in the snow from the collection' }).click();
    await members.getByRole('img', { name: 'a red fox in the snow' }).waitFor({ state: 'detached' });
    expect(await members.getByRole('img').count()).toBe(1);
  });

  it('shows the samples read-only, creates a template, and "Use" opens Generate with it', async () => {
    await goTo('Templates');
    const samples = page.getByRole('region', { name: 'Samples' });
    await samples.getByRole('button', { name: 'Use Sunset coast' }).waitFor();
    expect(await samples.getByRole('button', { name: /^(Edit|Delete)/ }).count()).toBe(0);

    const form = page.getByRole('region', { name: 'New template' });
    await form.getByLabel('Name').fill('Square lake');
    await form.getByLabel('Model', { exact: true }).selectOption('local/procedural');
    await form.getByLabel('Default prompt').fill('a lake in the mountains');
    await form.getByLabel('Width').fill('256');
    await form.getByLabel('Height').fill('256');
    await form.getByRole('button', { name: 'Create template' }).click();
    const mine = page.getByRole('region', { name: 'Your templates' });
    await mine.getByRole('button', { name: 'Edit Square lake' }).waitFor();
    await shoot('templates');

    await mine.getByRole('button', { name: 'Use Square lake' }).click();
    await heading('Generate');
    expect(await page.getByRole('textbox', { name: 'Prompt', exact: true }).inputValue()).toBe('a lake in the mountains');
    expect(await page.getByLabel('Width').inputValue()).toBe('256');
  });

  it('starts a batch and shows its progress to completion, with the images and the webhook status code', async () => {
    await goTo('Batches');
    await page.getByLabel('Prompts').fill('a red kite over the hills\na lighthouse in fog\n\nsnowy mountains at dawn');
    await page.getByLabel('Name').fill('Spring ideas');
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.getByRole('link', { name: 'Spring ideas' }).click();
    await heading('Spring ideas');
    await page.getByText('3 of 3 done').waitFor();
    await page.getByRole('region', { name: 'Attempts of batch.completed' }).getByRole('cell', { name: '200', exact: true }).waitFor();
    expect(await page.getByRole('list', { name: 'Images of Spring ideas' }).getByRole('img').count()).toBe(3);
    expect(await page.locator('.badge-completed').first().textContent()).toBe('completed');
    expect(receiver.received).toHaveLength(1);
    await shoot('batch');
    await goTo('Batches');
    await page.getByRole('progressbar', { name: 'Progress of Spring ideas' }).waitFor();
    await shoot('batches');
  });

  it('draws images and cost per day as charts stacked by model, with totals', async () => {
    const flux = '@cf/black-forest-labs/flux-1-schnell';
    for (const prompt of ['a ceramic mug on a table', 'a paper lantern']) await call('POST', '/api/generate', { prompt, model: flux });
    const usage = await call<{ total_cost: number }>('GET', '/api/analytics/usage');
    expect(usage.total_cost).toBeGreaterThan(0);

    await goTo('Analytics');
    const totals = page.locator('.totals');
    await totals.waitFor();
    expect(await totals.innerText()).toMatch(/Images\s+13\b/);
    expect(await page.getByRole('list', { name: 'Models' }).getByRole('listitem').allInnerTexts()).toEqual([flux, 'local/procedural']);
    const images = page.getByRole('img', { name: /^Images per day\./ });
    expect(await images.getAttribute('aria-label')).toContain('13 images in total');
    // Today's bar is two segments, one per model, each in its model's colour.
    const fills = await images.locator('rect.bar').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('fill')));
    expect(new Set(fills).size).toBe(2);
    const costs = page.getByRole('img', { name: /^Cost per day/ });
    expect(await costs.locator('rect.bar').count()).toBe(1);
    await shoot('analytics');
  });

  it('creates a key and shows its secret once, with a copy button; after a reload it is gone', async () => {
    await goTo('API keys');
    await page.getByLabel('Name').fill('ci');
    await page.getByRole('checkbox', { name: /^Manage/ }).uncheck();
    await page.getByLabel('Plan').selectOption('pro');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByLabel('New API key');
    await secret.waitFor();
    const value = await secret.inputValue();
    expect(value).toMatch(/^igk_live_/);
    expect(await page.getByText('It is shown only this once').count()).toBe(1);
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    await page.getByRole('row', { name: /^ci / }).waitFor();
    await shoot('keys');

    await page.reload();
    await heading('API keys');
    await page.getByRole('row', { name: /^ci / }).waitFor();
    expect(await page.getByLabel('New API key').count()).toBe(0);
    expect(await page.content()).not.toContain(value);

    await page.getByRole('button', { name: 'Revoke ci' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('row', { name: /^ci / }).getByText('revoked').waitFor();
  });

  it('reveals the webhook signing secret only when asked', async () => {
    const section = page.getByRole('region', { name: 'Webhook signing secret' });
    expect(await section.getByLabel('Signing secret').count()).toBe(0);
    await section.getByRole('button', { name: 'Reveal signing secret' }).click();
    expect(await section.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
  });

  it('can be used from the keyboard: a skip link first, then the menu, with a visible focus ring', async () => {
    await page.goto(`${web.origin}/templates`);
    await heading('Templates');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('imagegate home');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Generate');
    const ring = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement as Element);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    });
    expect(ring).toBe('solid 3px');
    await page.keyboard.press('Enter');
    await heading('Generate');
    // Focus moves to the new page's heading once it has rendered: wait for it rather than race it.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  });

  it('signs out: the key leaves the tab and the pages ask for one again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Sign in');
    expect(await page.evaluate(() => sessionStorage.getItem('imagegate.apiKey'))).toBeNull();
    await page.goto(`${web.origin}/analytics`);
    await heading('Sign in');
  });
});
