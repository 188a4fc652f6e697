import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-call.js';
import { skipWithoutChromium } from './support/chromium.js';
import { shootAt1280And390 } from './support/shots-widths.js';
import { closeAndGuard, openWebSession, type WebSession } from './support/web-session.js';

const KEY = 'igk_web_batch_history_admin_key_0123456789';
const skip = skipWithoutChromium();

/** Issue 19: a batch with a template, a size and a seed; a batch's pictures open their details; Generate keeps this session's results. */
describe.skipIf(skip)("the batch form's settings and Generate's history of this session (real server, Chromium)", { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;

  const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(web.origin, KEY, method, path, body);
  const shoot = async (name: string, options: { fullPage?: boolean } = {}) => {
    expect(await shootAt1280And390(page, name, options), `${name} is wider than 390 px`).toBeLessThanOrEqual(0);
  };
  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const isPost = (path: string) => (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === path;
  const dialog = () => page.getByRole('dialog', { name: 'Image details' });

  beforeAll(async () => {
    web = await openWebSession({ env: { ADMIN_API_KEY: KEY, BATCH_CONCURRENCY: '2' }, signInKey: KEY });
    page = web.page;
  }, 180_000);
  closeAndGuard(() => web);

  it('sends the template, size and seed with a batch; a template fills in its model and settings first', async () => {
    const template = await call<{ id: string }>('POST', '/api/templates', {
      name: 'Wide dusk',
      model: 'local/procedural',
      default_prompt: 'dusk',
      parameters: { width: 448, height: 256, seed: 3 },
    });
    await page.goto(`${web.origin}/batches`);
    await heading('Batches');
    const form = page.getByRole('region', { name: 'New batch' });
    await form.getByLabel('Prompts').fill('a kite over the dunes\na lantern in the rain');
    await form.getByLabel('Template').selectOption({ label: 'Wide dusk' });
    expect(await form.getByLabel('Model', { exact: true }).inputValue()).toBe('local/procedural');
    expect(await form.getByLabel('Width').inputValue()).toBe('448');
    expect(await form.getByLabel('Seed').inputValue()).toBe('3');
    // What is changed here wins over the template.
    await form.getByLabel('Width').fill('320');
    await form.getByLabel('Height').fill('192');
    await form.getByLabel('Seed').fill('11');
    await form.getByLabel('Name').fill('Kites and lanterns');
    await shoot('batch-form');

    const sent = page.waitForRequest(isPost('/api/batch/create'));
    await form.getByRole('button', { name: 'Start batch' }).click();
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Kites and lanterns',
      prompts: ['a kite over the dunes', 'a lantern in the rain'],
      model: 'local/procedural',
      template_id: template.id,
      width: 320,
      height: 192,
      seed: 11,
    });

    await page.getByRole('link', { name: 'Kites and lanterns' }).click();
    await heading('Kites and lanterns');
    await page.waitForURL((url) => /^\/batches\/.+/.test(url.pathname));
    await page.getByText('2 of 2 done').waitFor();
    const batches = await call<{ batches: { id: string; name: string }[] }>('GET', '/api/batch?limit=10');
    const batch = batches.batches.find((b) => b.name === 'Kites and lanterns');
    const detail = await call<{ images: { id: string }[] }>('GET', `/api/batch/${batch?.id ?? ''}`);
    for (const { id } of detail.images) {
      const image = await call<{ width: number; height: number; parameters: { seed?: number } }>('GET', `/api/images/${id}`);
      expect([image.width, image.height, image.parameters.seed]).toEqual([320, 192, 11]);
    }
  });

  it('opens a batch\'s picture, and a row\'s "Image" link, in the details dialog on the batch page', async () => {
    const here = page.url();
    await page.getByRole('list', { name: 'Images of Kites and lanterns' }).getByRole('button', { name: 'a lantern in the rain', exact: true }).click();
    await dialog().locator('dd').getByText('a lantern in the rain', { exact: true }).waitFor();
    await dialog().getByText('320 × 192').waitFor();
    expect(page.url()).toBe(here);
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Image of a kite over the dunes' }).click();
    await dialog().locator('dd').getByText('a kite over the dunes', { exact: true }).waitFor();
    expect(page.url()).toBe(here);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
  });

  it("keeps this session's results below the latest on Generate, across pages, until a reload", async () => {
    await page.goto(`${web.origin}/generate`);
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).waitFor();
    const earlier = page.getByRole('list', { name: 'Earlier results' });
    const generate = async (prompt: string) => {
      await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill(prompt);
      await page.getByRole('button', { name: 'Generate', exact: true }).click();
      await page.locator('.result figure').getByRole('img', { name: prompt, exact: true }).waitFor();
    };
    await generate('a paper boat on a pond');
    expect(await earlier.count()).toBe(0);
    await generate('a glass of lemonade');
    // Two generations, two results: the latest, and the first below it.
    await earlier.getByRole('img', { name: 'a paper boat on a pond', exact: true }).waitFor();
    expect(await earlier.getByRole('img').count()).toBe(1);
    await generate('a snail on a leaf');
    expect(await earlier.getByRole('img').evaluateAll((images) => images.map((image) => image.getAttribute('alt')))).toEqual([
      'a glass of lemonade',
      'a paper boat on a pond',
    ]);
    await shoot('generate-history');

    // An earlier result opens its details on Generate.
    await earlier.getByRole('button', { name: 'a paper boat on a pond', exact: true }).click();
    await dialog().locator('dd').getByText('a paper boat on a pond', { exact: true }).waitFor();
    await dialog().getByText('2 of 2').waitFor();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gallery', exact: true }).click();
    await heading('Gallery');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Generate', exact: true }).click();
    await heading('Generate');
    await earlier.getByRole('img', { name: 'a snail on a leaf', exact: true }).waitFor();
    expect(await earlier.getByRole('img').count()).toBe(3);

    await page.reload();
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).waitFor();
    expect(await earlier.count()).toBe(0);
  });
});
