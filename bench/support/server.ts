import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/e2e/spawn-server.js';
import { CLI, ROOT } from './build.js';

/** Fixed through ADMIN_API_KEY, so the bench never parses a generated key out of the log. */
export const ADMIN_KEY = `ig_bench_admin_${randomBytes(12).toString('hex')}`;

export const tempDir = (label: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `imagegate-bench-${label}-`));

export interface BenchServer {
  url: string;
  pid: number;
  /** Resident set size of the server process now, in MB (VmRSS of /proc/<pid>/status). */
  rssMb(): number;
  output(): string;
  stop(): Promise<void>;
}

function baseEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...extra };
}

function capture(child: ChildProcess, onLine?: (line: string) => void): () => string {
  let output = '';
  const take = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-20_000);
    if (onLine !== undefined) for (const line of text.split('\n')) if (line.trim() !== '') onLine(line);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return () => output;
}

export function readRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) / 1024;
}

/** Polls `url` until it answers 200: the server logs nothing at LOG_LEVEL=warn, and the port is the truth anyway. */
export async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before answering:\n${output()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`no answer from ${url} within ${timeoutMs} ms:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(force);
}

/** `node <script> [args]` as a long-running HTTP process on a free port, ready when `readyPath` answers. */
export async function startProcess(nodeArgs: string[], env: Record<string, string>, readyPath = '/health'): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, env: baseEnv({ ...env, PORT: String(port) }), stdio: ['ignore', 'pipe', 'pipe'] });
  const output = capture(child);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}${readyPath}`, child, output);
  const pid = child.pid;
  if (pid === undefined) throw new Error('spawned process has no pid');
  return { url, pid, rssMb: () => readRssMb(pid), output, stop: () => stopChild(child) };
}

/** The built `imagegate serve`, with its data in `env.DATA_DIR`. */
export const startImagegate = (env: Record<string, string>): Promise<BenchServer> => startProcess([CLI, 'serve'], env);

/** Runs `imagegate <args>` to completion, handing each output line to `onLine`. */
export async function runCli(args: string[], env: Record<string, string>, onLine?: (line: string) => void): Promise<string> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const output = capture(child, onLine);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  if (code !== 0) throw new Error(`imagegate ${args.join(' ')} exited with ${String(code)}:\n${output()}`);
  return output();
}
