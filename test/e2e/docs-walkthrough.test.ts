import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, commandLines, expectationPattern, expectations, docsSection } from './docs-blocks.js';
import { freePort, startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

/**
 * The curl walk-through of docs/getting-started.md, run as it is written: its start command's environment for a real
 * `imagegate serve`, then its script under `bash -euo pipefail`, so a failing request (curl -f) or a wrong id
 * stops it, and every `# ->` line must be found in the output, in order.
 */
const blocks = codeBlocks(docsSection('getting-started.md', 'Walk-through (curl)'), 'bash');
const [startBlock = '', ...scriptBlocks] = blocks;
const script = scriptBlocks.join('\n');
const START = /^((?:[A-Z_]+=\S+\s+)+)npm start$/;

/** `A=1 B=2 npm start` as { A: '1', B: '2' }. */
function startEnvironment(block: string): Record<string, string> {
  const lines = commandLines(block);
  const match = lines.length === 1 ? START.exec(lines[0] ?? '') : null;
  if (match === null) throw new Error(`the walk-through's first block must be one "NAME=value ... npm start" line, found:\n${block}`);
  return Object.fromEntries(
    (match[1] ?? '')
      .trim()
      .split(/\s+/)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the script in its own process group, so the webhook receiver it starts goes with it whatever happens. */
async function runScript(file: string, env: Record<string, string>, timeoutMs: number): Promise<ScriptRun> {
  const child = spawn('bash', ['-euo', 'pipefail', path.basename(file)], { cwd: path.dirname(file), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  };
  const timer = setTimeout(() => {
    stderr += `\n[test] the script did not finish in ${timeoutMs} ms: killed`;
    killGroup();
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  killGroup();
  return { code, stdout, stderr };
}

describe('the walk-through (curl) of docs/getting-started.md', () => {
  let server: ServerProcess;
  let run: ScriptRun;
  let workDir = '';

  beforeAll(async () => {
    server = await startServerProcess({ ...startEnvironment(startBlock), DATA_DIR: tempDataDir() });
    workDir = tempDataDir();
    const file = path.join(workDir, 'walk-through.sh');
    fs.writeFileSync(file, script);
    // Each answer on its own line, so a `# ->` line is matched within one answer (curl prints none after a body).
    fs.writeFileSync(path.join(workDir, '.curlrc'), 'write-out = "\\n"\n');
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CURL_HOME: workDir, IG: server.url, RECEIVER_PORT: String(await freePort()) };
    run = await runScript(file, env, 150_000);
  }, 240_000);

  afterAll(async () => {
    await server.stop();
  });

  it('starts the server once, with one admin key and webhooks to loopback allowed', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const env = startEnvironment(startBlock);
    expect(Object.keys(env).sort()).toEqual(['ADMIN_API_KEY', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS']);
    expect(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe('true');
    expect(script).toContain(`KEY=${env.ADMIN_API_KEY} `);
    expect(script).toContain('export IG=${IG:-http://127.0.0.1:8787}');
  });

  it('uses the ids it was given rather than placeholders, and fails on any refused request', () => {
    const commands = commandLines(script);
    for (const line of commands) expect(line, 'a placeholder id in a command').not.toMatch(/\b(img|tmpl|coll|key|batch)_(\.\.\.|01k)/);
    const curls = commands.flatMap((line) => [...line.matchAll(/\bcurl\s+(\S+)/g)].map((match) => ({ line, flags: match[1] ?? '' })));
    expect(curls.length).toBeGreaterThan(40);
    // The one curl without -f is the one that shows a 404 as its status code.
    for (const { line, flags } of curls) if (!line.includes("-w '%{http_code}")) expect(flags, line).toMatch(/^-s?f$/);
  });

  it('runs top to bottom against a real server and exits 0', () => {
    expect(
      run.code,
      `exit ${run.code}\n--- stderr\n${run.stderr}\n--- stdout (end)\n${run.stdout.slice(-3000)}\n--- server (end)\n${server.output().slice(-3000)}`,
    ).toBe(0);
    expect(fs.statSync(path.join(workDir, 'lighthouse.png')).size).toBeGreaterThan(1000);
  });

  it('answers what its "# ->" lines say, in order', () => {
    const wanted = expectations(script);
    expect(wanted.length).toBeGreaterThan(10);
    let from = 0;
    for (const expected of wanted) {
      // The page shows the default address; image URLs are the server's own (PUBLIC_BASE_URL's default).
      const pattern = expectationPattern(expected.replaceAll('http://127.0.0.1:8787', server.url));
      pattern.lastIndex = from;
      const found = pattern.exec(run.stdout);
      expect(found, `"# -> ${expected}" not found in the output after position ${from}:\n${run.stdout.slice(from, from + 3000)}`).not.toBeNull();
      from = (found?.index ?? 0) + (found?.[0].length ?? 0);
    }
  });

  it('stops its webhook receiver at the end', () => {
    expect(commandLines(script).at(-1)).toBe('kill "$receiver"');
    expect(run.stdout).toMatch(/"event":"batch\.completed"/);
  });
});
