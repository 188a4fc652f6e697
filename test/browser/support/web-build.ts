import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Builds the web app from the current sources into a fresh folder (the server gets it as WEB_APP_DIR), so
 * the browser tests never run against a stale `dist/web`. Vite builds this app in about a second.
 */
export async function buildWebApp(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-web-build-'));
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', 'web', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0 || !fs.existsSync(path.join(outDir, 'index.html'))) throw new Error(`vite build failed (${code}):\n${output}`);
  return outDir;
}
