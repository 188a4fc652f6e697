import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../e2e/spawn-server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');
/** Nothing leaves loopback: no usage metrics, no request.cf lookup (see .ci/run). */
const OFFLINE = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

const ROOT_CONFIG = path.join(ROOT, 'wrangler.jsonc');

export const ADMIN_KEY = 'igk_wrangler_dev_admin_key_0123456789';

export interface WranglerDev {
  url: string;
  /** Where D1, R2 and the Durable Objects keep their state: a restart with the same folder finds it all. */
  persistTo: string;
  output: () => string;
  /** SIGKILL to the whole process group (wrangler and its workerd): nothing gets to finish. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export const tempStateDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-wrangler-'));

/** `wrangler d1 migrations apply DB --local`, as the local run of docs/cloudflare-workers.md does before `wrangler dev`. */
export function applyMigrations(persistTo: string, config = ROOT_CONFIG): void {
  const result = spawnSync(process.execPath, [WRANGLER, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo, '--config', config], {
    cwd: ROOT,
    env: { ...process.env, ...OFFLINE, CI: 'true' },
    input: '',
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`wrangler d1 migrations apply failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * `wrangler dev --local` of the repository's own wrangler.jsonc on a free port, with `vars` as `--var NAME:value`,
 * resolved once /health answers at all. The web app is served from dist/web, which `npm install` builds. `config`
 * names another wrangler configuration (the harness's).
 */
export async function startWranglerDev(persistTo: string, vars: Record<string, string> = {}, config = ROOT_CONFIG): Promise<WranglerDev> {
  // A free port is only free when it was asked for: another process (a test's server, its workerd) may take it before
  // workerd binds it. Such a start fails at once, saying so; it is tried again on other ports.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startWranglerDevOnce(persistTo, vars, config);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error && error.message.includes('Address already in use'))) throw error;
    }
  }
}

async function startWranglerDevOnce(persistTo: string, vars: Record<string, string>, config: string): Promise<WranglerDev> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const all = { ADMIN_API_KEY: ADMIN_KEY, PUBLIC_BASE_URL: url, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'warn', ...vars };
  const args = [
    WRANGLER,
    'dev',
    '--local',
    '--persist-to',
    persistTo,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(await freePort()),
    '--show-interactive-dev-session=false',
    '--test-scheduled',
    '--config',
    config,
  ];
  for (const [name, value] of Object.entries(all)) args.push('--var', `${name}:${value}`);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...OFFLINE },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
    // Any answer means workerd is serving (an unmigrated D1 answers 503, which a test may want to see).
    const up = await fetch(`${url}/health`)
      .then(() => true)
      .catch(() => false);
    if (up) break;
    if (Date.now() > deadline) {
      signalGroup('SIGKILL');
      throw new Error(`wrangler dev did not answer within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    persistTo,
    output: () => output,
    async kill() {
      signalGroup('SIGKILL');
      await exited;
    },
    async stop() {
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A request to the Worker as the admin key, JSON in and out. */
export async function call(dev: Pick<WranglerDev, 'url'>, method: string, route: string, body?: unknown, key = ADMIN_KEY): Promise<Response> {
  return fetch(`${dev.url}${route}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
