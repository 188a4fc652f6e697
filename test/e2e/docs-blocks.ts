import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/**
 * The text of one section of a page under docs/: a `## <heading>` up to the next heading of that level, or, when
 * the heading is the page's `# <title>`, the whole page.
 */
export function docsSection(page: string, heading: string): string {
  const file = path.join(DOCS, page);
  const text = fs.readFileSync(file, 'utf8');
  if (text.startsWith(`# ${heading}\n`)) return text;
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/${page} has no "## ${heading}" section; the test reads its code blocks from there`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The bodies of the fenced code blocks of one language (```bash ... ```), in order. */
export function codeBlocks(section: string, language: string): string[] {
  const fence = new RegExp(String.raw`^\`\`\`${language}\n([\s\S]*?)^\`\`\`$`, 'gm');
  return [...section.matchAll(fence)].map((match) => match[1] ?? '');
}

/**
 * A `# -> ...` line as a pattern over one line of output: its text literally, each `...` standing for anything
 * on the same line (so an expectation never spans two answers).
 */
export function expectationPattern(expected: string): RegExp {
  const escape = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(expected.split('...').map(escape).join('[^\\n]*?'), 'g');
}

/** The `# -> ` lines of a script, without the marker. */
export const expectations = (script: string): string[] =>
  script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('# -> '))
    .map((line) => line.slice('# -> '.length).trim());

/** The script's lines without their comments: what bash runs (its commands have no ` #` inside quotes). */
export const commandLines = (script: string): string[] =>
  script
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trimEnd())
    .filter((line) => line.trim() !== '');

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a script file under `bash -euo pipefail` in `cwd` (its own folder by default), in its own process group, so
 * what it starts in the background (a webhook receiver, servers) goes with it whatever happens.
 */
export async function runScript(file: string, env: Record<string, string>, timeoutMs: number, cwd = path.dirname(file)): Promise<ScriptRun> {
  const child = spawn('bash', ['-euo', 'pipefail', file], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * The first `# ->` line of a script not found in its output, in order (each after the previous one's match), with
 * the output from there; undefined when all are. `adapt` turns the page's text into what this run prints (its ports).
 */
export function missingExpectation(script: string, stdout: string, adapt: (expected: string) => string = (text) => text): string | undefined {
  let from = 0;
  for (const expected of expectations(script)) {
    const pattern = expectationPattern(adapt(expected));
    pattern.lastIndex = from;
    const found = pattern.exec(stdout);
    if (found === null) return `"# -> ${expected}" not found in the output after position ${from}:\n${stdout.slice(from, from + 3000)}`;
    from = found.index + found[0].length;
  }
  return undefined;
}
