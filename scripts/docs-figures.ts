import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Figures the docs give about the build, measured instead of written by hand (a hand-written "22 kB" went stale
 * as the app grew). `npm run docs:figures` rewrites them; test/repo/docs/docs-figures.test.ts fails when a page and
 * the build disagree by more than FIGURE_TOLERANCE.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
export const FIGURES_PAGE = path.join(ROOT, 'docs/getting-started.md');
/** The phrase that states the web app's script size, e.g. `about 37 kB of script gzipped`. */
const WEB_SCRIPT_FIGURE = /about (\d+) kB of script gzipped/;
/** Measured and stated sizes may differ this much (a fraction) before the test asks for `npm run docs:figures`. */
export const FIGURE_TOLERANCE = 0.05;

/** Builds the web app from the current sources into a fresh temporary folder (Vite, as `npm run build:web` does). */
export async function buildWebApp(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-web-figures-'));
  const args = [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', 'web', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'];
  // NODE_ENV as `npm run build` has it: under vitest it is `test`, and Vite then bundles Preact's development build.
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`vite build failed (${String(code)}):\n${output}`);
  return outDir;
}

/**
 * What a browser downloads of the app's script: every `.js` under `assets/` of a build, each gzipped at level 9
 * (`gzip -9`), in bytes.
 */
export function webScriptGzipBytes(buildDir: string): number {
  const assets = path.join(buildDir, 'assets');
  const scripts = fs.readdirSync(assets).filter((name) => name.endsWith('.js'));
  if (scripts.length === 0) throw new Error(`${assets} holds no .js file: is it a build of the web app?`);
  return scripts.reduce((sum, name) => sum + gzipSync(fs.readFileSync(path.join(assets, name)), { level: 9 }).length, 0);
}

/** Bytes as the docs say them: whole kB of 1000 bytes. */
export const asKb = (bytes: number): number => Math.round(bytes / 1000);

/** The script size a page states, in kB. */
export function statedWebScriptKb(page: string): number {
  const match = WEB_SCRIPT_FIGURE.exec(page);
  if (match === null) throw new Error(`the page no longer says "about <n> kB of script gzipped"; update ${path.relative(ROOT, FIGURES_PAGE)} or this script`);
  return Number(match[1]);
}

/** The page with its script size set to `kb`. */
export const withWebScriptKb = (page: string, kb: number): string => page.replace(WEB_SCRIPT_FIGURE, `about ${kb} kB of script gzipped`);
