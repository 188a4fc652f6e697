import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { skipWithout, TEST_DATABASE_URL, TEST_REDIS_URL } from '../../src/test-support/services.js';
import { adminQuery, dropDeployment } from '../e2e/deployment.js';
import { startCliProcess, tempDataDir, type ServerProcess } from '../e2e/spawn-server.js';
import { callApi } from './support/api-call.js';
import { skipWithoutChromium } from './support/chromium.js';
import { shootAt1280And390 } from './support/shots-widths.js';
import { closeAndGuard, openWebSession, type WebSession } from './support/web-session.js';

const KEY = 'igk_web_generation_queue_admin_key_0123456789';
const skip = skipWithoutChromium() || (await skipWithout('postgres', 'redis'));

/**
 * Issue 38: a generation waits in the queue until a worker takes it, and the page says so. The API process runs no
 * workers (`serve --no-workers`, on PostgreSQL and Redis as a deployment would), so what is sent stays queued until
 * the test starts `imagegate worker`; the page then follows it, across processes, to its image.
 */
describe.skipIf(skip)('a queued generation on Generate (API without workers, then a worker; Chromium)', { timeout: 180_000 }, () => {
  const database = `imagegate_web_queue_${process.pid}_${randomBytes(3).toString('hex')}`;
  const redisPrefix = freshRedisPrefix('web-queue');
  const dbUrl = new URL(TEST_DATABASE_URL);
  dbUrl.pathname = `/${database}`;
  // One data folder for the API and the worker: the worker stores the image, the API serves it.
  const env = { ADMIN_API_KEY: KEY, DATABASE_URL: dbUrl.toString(), REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: redisPrefix, DATA_DIR: tempDataDir() };
  let web: WebSession;
  let page: Page;
  let worker: ServerProcess | undefined;

  const panel = () => page.getByRole('region', { name: 'Generation', exact: true });
  const statusLine = (text: string | RegExp) => panel().getByRole('status').filter({ hasText: text });
  const generate = async (prompt: string) => {
    const before = page.url();
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill(prompt);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.waitForURL((url) => url.href !== before && /^\/generations\/gen_/.test(url.pathname));
    return new URL(page.url()).pathname.split('/')[2] ?? '';
  };

  beforeAll(async () => {
    await adminQuery(`create database "${database}"`);
    web = await openWebSession({ env, serveArgs: ['--no-workers'], signInKey: KEY });
    page = web.page;
  }, 180_000);
  closeAndGuard(() => web);
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await dropDeployment(database, redisPrefix);
  }, 60_000);

  it('says where a generation waits in the queue, cancels one there uncharged, and follows the other once a worker runs it', async () => {
    await page.goto(`${web.origin}/generate`);
    const first = await generate('a paper lantern, first in line');
    await statusLine('Queued: next to start').waitFor();
    const second = await generate('a paper lantern, second in line');
    await statusLine('Queued: 1 generation starts before this one').waitFor();
    await panel().getByText('queued', { exact: true }).waitFor();
    expect(await shootAt1280And390(page, 'generation-queued'), 'generation-queued is wider than 390 px').toBeLessThanOrEqual(0);

    await panel().getByRole('button', { name: 'Cancel generation' }).click();
    await statusLine('Cancelled: it never started, and nothing was charged.').waitFor();
    const charges = await callApi<{ charges: unknown[] }>(web.origin, KEY, 'GET', '/api/analytics/charges');
    expect(charges.charges).toEqual([]);

    // Back to the first, from the latest generations: still queued until a worker starts.
    await page.getByRole('region', { name: 'Recent generations' }).getByRole('link', { name: 'a paper lantern, first in line' }).click();
    await page.waitForURL((url) => url.pathname === `/generations/${first}`);
    await statusLine('Queued: next to start').waitFor();
    worker = await startCliProcess(['worker'], env, 'imagegate worker started');
    await page.locator('.result figure').getByRole('img', { name: 'a paper lantern, first in line', exact: true }).waitFor({ timeout: 30_000 });
    expect(await callApi(web.origin, KEY, 'GET', `/api/generations/${second}`)).toMatchObject({ status: 'cancelled', started_at: null });
  });
});
