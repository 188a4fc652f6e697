import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: `.ci/run` installs the `chromium` package when it is missing; a browser is never downloaded. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * True when the browser tests should be skipped: no Chromium and not CI. Under CI=true a missing browser
 * is an error, so the suite fails instead of passing with nothing tested.
 */
export function skipWithoutChromium(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return false;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM_PATH} is missing; CI needs it (.ci/run installs the chromium package)`);
  console.warn(`skipping the web app's browser tests: ${CHROMIUM_PATH} is missing (apt-get install chromium, or set CHROMIUM_PATH)`);
  return true;
}

/** Headless, and quiet on the network: no background updates, sync or QUIC, so every request seen is the page's. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
