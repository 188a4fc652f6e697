import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const tempDataDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-e2e-'));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr. */
  output: () => string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the real CLI (`imagegate serve`) from source in a child process, on a real port. */
export async function startServerProcess(env: Record<string, string>, args: readonly string[] = []): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const process_ = await startCliProcess(['serve', ...args], { ...env, PORT: port }, 'imagegate listening');
  return { ...process_, url: `http://127.0.0.1:${port}` };
}

/**
 * How long a process may take to say it is ready. From source, tsx transpiles the whole tree at start: a few seconds on
 * a quiet machine, but 30 s was missed on a loaded one (two cores, several suites at once) with nothing wrong.
 */
const START_DEADLINE_MS = 60_000;

/** Runs `imagegate <args>` from source and waits until it logs `readyLine` (or exits). */
export async function startCliProcess(args: readonly string[], env: Record<string, string>, readyLine: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/runtimes/node/entry/node.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (child.exitCode !== null) break;
    if (output.includes(readyLine)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`imagegate ${args.join(' ')} did not start in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: '',
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
