import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, expect } from 'vitest';
import { freePort, startServerProcess, tempDataDir, type ServerProcess } from '../../e2e/spawn-server.js';
import { launchChromium } from './chromium.js';
import { guardPage, type PageGuard } from './page-guard.js';
import { DESKTOP } from './screenshots.js';
import { buildWebApp } from './web-build.js';

export interface WebSession {
  server: ServerProcess;
  /** Where the browser goes: the server itself, or the edge in front of it. */
  origin: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  guard: PageGuard;
  close(): Promise<void>;
}

export interface WebSessionOptions {
  env: Record<string, string>;
  /** Puts something in front of the server (an edge proxy); the browser then only talks to it. */
  front?: (serverUrl: string) => Promise<{ url: string; close(): Promise<void> }>;
  /** Signed in with this key from the first page on (signing in has its own tests, key-mode.test.ts). */
  signInKey?: string;
  /** Arguments after `serve` (`--no-workers`). */
  serveArgs?: readonly string[];
}

/**
 * A freshly built web app served by a real `imagegate serve` (temp DATA_DIR), and one Chromium page on it
 * with the guard watching. Everything the app links to (image URLs included) stays on this machine.
 */
export async function openWebSession(options: WebSessionOptions): Promise<WebSession> {
  const webAppDir = await buildWebApp();
  const port = await freePort();
  let front: { url: string; close(): Promise<void> } | undefined;
  let publicOrigin = `http://127.0.0.1:${port}`;
  if (options.front !== undefined) {
    front = await options.front(publicOrigin);
    publicOrigin = front.url;
  }
  const server = await startServerProcess(
    {
      PORT: String(port),
      DATA_DIR: tempDataDir(),
      WEB_APP_DIR: webAppDir,
      PUBLIC_BASE_URL: publicOrigin,
      ...options.env,
    },
    options.serveArgs,
  );
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-GB', timezoneId: 'UTC' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: publicOrigin });
  // Timers run in real time unless a test pauses them (the undo window of a delete is then not a race).
  await context.clock.install();
  const page = await context.newPage();
  // The machine is shared and slow at times: generous waits, never fixed sleeps; yet one broken page must not
  // hold the suite for minutes (every later step of that file would wait this long too).
  page.setDefaultTimeout(15_000);
  const guard = guardPage(page);
  if (options.signInKey !== undefined) await page.addInitScript((key) => sessionStorage.setItem('imagegate.apiKey', key), options.signInKey);
  return {
    server,
    origin: publicOrigin,
    browser,
    context,
    page,
    guard,
    async close() {
      await browser.close().catch(() => undefined);
      await server.stop('SIGKILL');
      await front?.close();
      fs.rmSync(webAppDir, { recursive: true, force: true });
    },
  };
}

/**
 * For a describe block that opens one session for all its tests: closes it after the last, and after each test
 * expects that the page reached nothing off the machine and logged no error (what every browser test checks).
 */
export function closeAndGuard(session: () => WebSession | undefined): void {
  afterAll(async () => {
    await session()?.close();
  });
  afterEach(() => {
    // Without a session (it failed to open) these fail too, as they should.
    const guard = session()?.guard;
    expect(guard?.offMachine, 'requests off the machine').toEqual([]);
    expect(guard?.errors, 'console errors').toEqual([]);
  });
}
