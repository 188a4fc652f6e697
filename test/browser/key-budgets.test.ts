import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../web/src/lib/format.js';
import { startWorkersAiFake } from '../../src/adapters/providers/workers-ai/workers-ai.fake.js';
import { skipWithoutChromium } from './support/chromium.js';
import { DESKTOP, horizontalOverflow, SCREENSHOT_DIR, screenshotBoth } from './support/screenshots.js';
import { openWebSession, type WebSession } from './support/web-session.js';

const KEY = 'igk_web_e2e_budget_admin_key_0123';
const PRICED = '@cf/black-forest-labs/flux-1-schnell';
const skip = skipWithoutChromium();

interface KeyRecord {
  id: string;
  name: string;
  daily_budget_usd: number | null;
  monthly_budget_usd: number | null;
  expires_at: string | null;
  spend: { today_usd: number; this_month_usd: number };
}

/** Budgets and expiry on the API keys page: set when creating a key, changed later (PATCH), spend beside them. */
describe.skipIf(skip)('key budgets in the web app (real server, Chromium)', { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;
  let workersAi: Awaited<ReturnType<typeof startWorkersAiFake>>;

  beforeAll(async () => {
    // A priced model, so the new key has spend to show beside its budgets.
    workersAi = await startWorkersAiFake();
    web = await openWebSession({
      env: { ADMIN_API_KEY: KEY, CLOUDFLARE_ACCOUNT_ID: 'acct_e2e', CLOUDFLARE_API_TOKEN: 'token_e2e', CLOUDFLARE_API_BASE_URL: workersAi.baseUrl },
    });
    page = web.page;
  }, 180_000);
  afterAll(async () => {
    await web?.close();
    await workersAi?.close();
  });
  afterEach(() => {
    expect(web.guard.offMachine, 'requests off the machine').toEqual([]);
    expect(web.guard.errors, 'console errors').toEqual([]);
  });

  const call = async <T>(method: string, url: string, body?: unknown, key = KEY): Promise<T> => {
    const res = await fetch(`${web.origin}${url}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as T;
  };
  const keyNamed = async (name: string) => (await call<{ keys: KeyRecord[] }>('GET', '/api/keys')).keys.find((k) => k.name === name);
  const row = () => page.getByRole('row', { name: /^nightly / });
  const nextYear = new Date().getUTCFullYear() + 1;

  it('creates a key with daily and monthly budgets and an expiry through the form', async () => {
    // Signing in leads back to the page asked for.
    await page.goto(`${web.origin}/keys`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();

    const form = page.getByRole('region', { name: 'New key' });
    await form.getByLabel('Name').fill('nightly');
    await form.getByLabel('Daily budget (USD)').fill('2');
    await form.getByLabel('Monthly budget (USD)').fill('30');
    // The browser runs in UTC (web-session.ts), so local time is UTC here.
    await form.getByLabel('Expires').fill(`${nextYear}-06-30T12:00`);
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('New API key').inputValue();
    await row().waitFor();

    const created = await keyNamed('nightly');
    expect(created).toMatchObject({ daily_budget_usd: 2, monthly_budget_usd: 30, expires_at: `${nextYear}-06-30T12:00:00.000Z` });
    // Spend, made with the new key itself, shows beside the budgets once the list is read again.
    await call('POST', '/api/generate', { prompt: 'a paper lantern', model: PRICED }, secret);
    await page.reload();
    await row().waitFor();
    const spent = (await keyNamed('nightly'))?.spend.today_usd ?? 0;
    expect(spent).toBeGreaterThan(0);
    const spend = row().getByRole('cell').filter({ hasText: 'Today:' });
    expect(await spend.innerText()).toBe(`Today: ${formatUsd(spent)} of ${formatUsd(2)}\nThis month: ${formatUsd(spent)} of ${formatUsd(30)}`);
  });

  it('says in words what is wrong with a change, then changes the daily budget and lists it', async () => {
    await page.getByRole('button', { name: 'Change nightly' }).click();
    const edit = page.getByRole('region', { name: 'Change nightly' });
    await edit.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Change nightly');
    expect(await edit.getByLabel('Daily budget (USD)').inputValue()).toBe('2');
    expect(await edit.getByLabel('Expires').inputValue()).toBe(`${nextYear}-06-30T12:00`);

    const id = (await keyNamed('nightly'))?.id ?? '';
    web.guard.expectFailure(400, `/api/keys/${id}`);
    await edit.getByLabel('Expires').fill('2020-01-01T00:00');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#edit-key-expires-error').waitFor();
    expect(await page.locator('#edit-key-expires-error').textContent()).toMatch(/^expires_at must be in the future/);
    await shootBoth('key-budgets-edit');

    await edit.getByLabel('Expires').fill(`${nextYear}-06-30T12:00`);
    await edit.getByLabel('Daily budget (USD)').fill('0.5');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved the changes to nightly.').waitFor();
    expect(await edit.count()).toBe(0);
    const changed = await keyNamed('nightly');
    expect(changed).toMatchObject({ daily_budget_usd: 0.5, monthly_budget_usd: 30, expires_at: `${nextYear}-06-30T12:00:00.000Z` });
    await row()
      .getByText(`Today: ${formatUsd(changed?.spend.today_usd ?? 0)} of ${formatUsd(0.5)}`)
      .waitFor();
    await shootBoth('key-budgets');
  });

  /** The project's pair (1280 and 360 px), a 390 px phone besides, and nothing wider than the phone. */
  async function shootBoth(name: string): Promise<void> {
    await screenshotBoth(page, name);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-390.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);
    expect(await horizontalOverflow(page), `${name} is wider than 360 px`).toBeLessThanOrEqual(0);
  }
});
