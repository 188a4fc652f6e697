import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, commandLines, expectationPattern, expectations, docsSection, runScript, type ScriptRun } from './docs-blocks.js';
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

describe('the walk-through (curl) of docs/getting-started.md', () => {
  let server: ServerProcess;
  let run: ScriptRun;
  let workDir = '';

  beforeAll(async () => {
    server = await startServerProcess({ ...startEnvironment(startBlock), DATA_DIR: tempDataDir() });
    workDir = tempDataDir();
    const file = path.join(workDir, 'walk-through.sh');
    fs.writeFileSync(file, script);
    // HOME and CURL_HOME are this folder, which has no .curlrc: the script prints what it prints on a fresh machine.
    const env = { PATH: process.env.PATH ?? '', HOME: workDir, CURL_HOME: workDir, IG: server.url, RECEIVER_PORT: String(await freePort()) };
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

  it("ends each answer it prints with a newline, without any set-up: -w '\\n' where curl prints it, jq elsewhere", () => {
    // A curl whose answer reaches the terminal unpiped and not saved (-o) prints a body without a newline of its own.
    const printing = commandLines(script).filter((line) => /^curl\s/.test(line) && !line.includes('|') && !/\s-o\s/.test(line));
    expect(printing.length).toBeGreaterThan(20);
    for (const line of printing) expect(line, 'an answer that would run into the next one').toMatch(/\s-w '[^']*\\n'\s/);
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
