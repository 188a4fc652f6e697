import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = path.join(ROOT, 'bin/imagegate.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * The bench runs the built server, as production does (no tsx transform at start, the same JS a deployment
 * runs). Only the server is compiled: the web app's vite build is not on any measured path.
 */
export function ensureBuilt(): void {
  const entry = path.join(ROOT, 'dist/runtimes/node/entry/node.js');
  const built = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
  if (built >= newestMtime(path.join(ROOT, 'src'))) return;
  console.log('building dist/ (tsc -p tsconfig.build.json), src is newer…');
  execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  // tsc leaves unchanged outputs untouched; mark the build so the next run does not rebuild.
  const now = new Date();
  fs.utimesSync(entry, now, now);
}
