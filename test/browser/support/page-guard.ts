import type { Page } from 'playwright-core';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d{3})/;

export interface PageGuard {
  /** Requests to anywhere but this machine (http(s) to a non-loopback host, or another scheme). */
  offMachine: string[];
  /** Console errors and uncaught exceptions, except the error answers a test provoked on purpose. */
  errors: string[];
  /** An error answer the test causes on purpose (a wrong key): Chromium logs it, and that is expected. */
  expectFailure(status: number, path: string): void;
}

/** Watches a page for the two things it must never do: reach off the machine, or log an error. */
export function guardPage(page: Page): PageGuard {
  const guard: PageGuard & { expected: { status: number; path: string }[] } = {
    offMachine: [],
    errors: [],
    expected: [],
    expectFailure(status, path) {
      guard.expected.push({ status, path });
    },
  };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !LOOPBACK.has(url.hostname)) guard.offMachine.push(`${request.method()} ${request.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const failed = FAILED_RESOURCE.exec(message.text());
    const where = message.location().url;
    if (failed !== null && where !== '') {
      const path = new URL(where).pathname;
      const index = guard.expected.findIndex((e) => e.status === Number(failed[1]) && path === e.path);
      if (index >= 0) {
        guard.expected.splice(index, 1);
        return;
      }
    }
    guard.errors.push(`${message.text()} (${where})`);
  });
  page.on('pageerror', (error) => guard.errors.push(`uncaught: ${error.message}`));
  return guard;
}
