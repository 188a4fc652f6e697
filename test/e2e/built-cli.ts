import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = path.join(ROOT, 'dist/runtimes/node/entry/node.js');

/** The newest change among the files `tsconfig.build.json` compiles (src/ without tests and test support). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test-support') newest = Math.max(newest, newestSource(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

/**
 * `bin/imagegate.js` runs the build in `dist/` (which `npm install` makes), not the sources: tests of the
 * installed command compile it first when it is missing or older than a source file, so they never run
 * yesterday's code. Only the server part: the web app is not needed by the CLI.
 */
export async function ensureBuilt(): Promise<void> {
  const built = fs.existsSync(ENTRY) ? fs.statSync(ENTRY).mtimeMs : 0;
  if (built >= newestSource(path.join(ROOT, 'src'))) return;
  try {
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, timeout: 280_000 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`building dist/ (tsc -p tsconfig.build.json) failed: ${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}
