import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/test-support/webhook-receiver.js';
import { callApi } from './support/api-call.js';
import { skipWithoutChromium } from './support/chromium.js';
import { startHeldOpenAi, type HeldOpenAi } from './support/held-openai.js';
import { DESKTOP } from './support/screenshots.js';
import { PHONE_390, shootAt1280And390 } from './support/shots-widths.js';
import { closeAndGuard, openWebSession, type WebSession } from './support/web-session.js';

const KEY = 'igk_web_generation_jobs_admin_key_0123456789';
const skip = skipWithoutChromium();

/**
 * Issue 38: Generate sends each generation as a job and follows it at /generations/<id>, live, across a reload;
 * a running one is found again in the latest generations and cancelled. OpenAI's GPT image model is the real adapter
 * calling a loopback OpenAI that streams its partial images and holds each generation until the test lets it finish.
 */
describe.skipIf(skip)('generations as jobs on Generate (real server, Chromium)', { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;
  let openai: HeldOpenAi;

  const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(web.origin, KEY, method, path, body);
  const shoot = async (name: string) => {
    expect(await shootAt1280And390(page, name), `${name} is wider than 390 px`).toBeLessThanOrEqual(0);
  };
  const isPost = (path: string) => (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === path;
  const panel = () => page.getByRole('region', { name: 'Generation', exact: true });
  const statusLine = (text: string | RegExp) => panel().getByRole('status').filter({ hasText: text });
  const recent = () => page.getByRole('region', { name: 'Recent generations' });
  const generationId = () => /^\/generations\/(gen_[^/]+)$/.exec(new URL(page.url()).pathname)?.[1] ?? '';

  /** Fills in and sends the form; resolves with the request's body and Prefer header once the page follows the job. */
  async function generate(prompt: string, partials: string): Promise<{ body: Record<string, unknown>; prefer: string | undefined }> {
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill(prompt);
    await page.getByLabel('Model', { exact: true }).selectOption('openai/gpt-image-2');
    await page.getByLabel('Partial images').selectOption(partials);
    const sent = page.waitForRequest(isPost('/api/generate'));
    const before = page.url();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const request = await sent;
    await page.waitForURL((url) => url.href !== before && /^\/generations\/gen_/.test(url.pathname));
    return { body: request.postDataJSON() as Record<string, unknown>, prefer: request.headers().prefer };
  }

  beforeAll(async () => {
    openai = await startHeldOpenAi();
    web = await openWebSession({ env: { ADMIN_API_KEY: KEY, OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: openai.baseUrl }, signInKey: KEY });
    page = web.page;
  }, 180_000);
  closeAndGuard(() => web);
  afterAll(async () => {
    await openai?.close();
  });

  it('follows a generation at its own address with its partial images, across a reload, to its image', async () => {
    const prompt = 'a lighthouse drawn in three passes';
    await page.goto(`${web.origin}/generate`);
    const { body, prefer } = await generate(prompt, '2');
    expect(prefer).toBe('respond-async');
    expect(body).toMatchObject({ prompt, model: 'openai/gpt-image-2', partial_images: 2 });
    const id = generationId();
    expect(id).not.toBe('');
    await openai.drawing(1);

    await statusLine('Generating with GPT Image 2…').waitFor();
    await panel()
      .getByRole('img', { name: `Partial image 2 of ${prompt}` })
      .waitFor();
    await panel().getByRole('progressbar', { name: 'Generating' }).waitFor();
    await recent().getByRole('link', { name: prompt }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Generate' }).getAttribute('aria-current')).toBe('page');
    await shoot('generation-running');

    // A reload mid-run finds the generation at its address and follows it on: nothing was lost with the page.
    await page.reload();
    await statusLine('Generating with GPT Image 2…').waitFor();
    expect(generationId()).toBe(id);
    // The form, empty after the reload, says what the generation asked.
    expect(await page.getByRole('textbox', { name: 'Prompt', exact: true }).inputValue()).toBe(prompt);
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('openai/gpt-image-2');
    openai.finish(0);
    await page.locator('.result figure').getByRole('img', { name: prompt, exact: true }).waitFor();
    await recent().getByRole('listitem').filter({ hasText: prompt }).getByText('succeeded').waitFor();
    await shoot('generation-done');
    expect(await call('GET', `/api/generations/${id}`)).toMatchObject({ status: 'succeeded', image: { prompt } });
  });

  it('lists a running generation to come back to from another page, and cancels it there', async () => {
    const prompt = 'a harbour at night, never finished';
    // Sent from a phone: the generation, below the form there, is brought into view.
    await page.setViewportSize(PHONE_390);
    await generate(prompt, '');
    const id = generationId();
    await openai.drawing(2);
    await statusLine('Generating with GPT Image 2…').waitFor();
    // A smooth scroll (unless reduced motion is asked for): it takes a moment.
    await expect.poll(() => panel().evaluate((section) => section.getBoundingClientRect().top)).toBeLessThan(PHONE_390.height / 2);
    await page.setViewportSize(DESKTOP);

    // Away to the gallery and back: the running generation is in the latest ones, and its link follows it again.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Gallery', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Gallery' }).waitFor();
    await nav.getByRole('link', { name: 'Generate', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/generate');
    const line = recent().getByRole('listitem').filter({ hasText: prompt });
    await line.getByText('running').waitFor();
    await line.getByRole('link', { name: prompt }).click();
    await page.waitForURL((url) => url.pathname === `/generations/${id}`);
    await statusLine('Generating with GPT Image 2…').waitFor();

    await panel().getByRole('button', { name: 'Cancel generation' }).click();
    await statusLine('Cancelled: stopped while it ran.').waitFor();
    await panel().getByText('cancelled', { exact: true }).waitFor();
    expect(await panel().getByRole('button', { name: 'Cancel generation' }).count()).toBe(0);
    await shoot('generation-cancelled');
    expect(await call('GET', `/api/generations/${id}`)).toMatchObject({ status: 'cancelled', error: { code: 'GENERATION_CANCELLED' } });
    // The worker stopped the provider call it was waiting on.
    expect(await eventually(async () => (openai.cutOff(1) ? true : undefined), 10_000)).toBe(true);
  });
  it('shows each prompt of a batch running, then its image, while the batch is open', async () => {
    const batch = await call<{ batch_id: string }>('POST', '/api/batch/create', {
      name: 'Held lanterns',
      prompts: ['a lantern on a pier', 'a lantern in the fog'],
      model: 'openai/gpt-image-2',
    });
    await page.goto(`${web.origin}/batches/${batch.batch_id}`);
    await page.getByRole('heading', { level: 1, name: 'Held lanterns' }).waitFor();
    await openai.drawing(4);
    const row = (prompt: string) => page.getByRole('row').filter({ hasText: prompt });
    for (const prompt of ['a lantern on a pier', 'a lantern in the fog']) await row(prompt).getByText('running', { exact: true }).waitFor();
    await shoot('batch-running');
    openai.finish(2);
    openai.finish(3);
    for (const prompt of ['a lantern on a pier', 'a lantern in the fog'])
      await row(prompt)
        .getByRole('link', { name: `Image of ${prompt}` })
        .waitFor();
    await page.getByText('2 of 2 done').waitFor();
  });
});
