import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, startWranglerDev, type WranglerDev } from '../../test/runtimes/wrangler-dev/wrangler-dev.js';
import type { Deps } from '../domain/context.js';
import type { StoredBlob } from '../ports/blob-store.js';
import { callInit, type Harness, type HarnessApp, type HarnessOptions, type TestBlobStore, type TestClock } from './harness.js';
import { HARNESS_CLOCK_HEADER, type HarnessReset } from './harness-protocol.js';
import { serveProviders } from './provider-bridge.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, 'test/runtimes/wrangler-dev/harness/wrangler.jsonc');
const MIGRATIONS = path.join(ROOT, 'migrations/d1');

/** Options that hand the harness an object of this process (a provider, a transport): the service runs in workerd. */
/**
 * Providers cross over the provider bridge; `storage: 'memory'` is taken, since the tests that ask for it want the
 * images served at /files, as the Worker serves R2; `workers: false` keeps the Queue's jobs unrun.
 */
const IN_PROCESS_OPTIONS = ['webhooks', 'lookup', 'jobRetry', 'cpu'] as const;

/**
 * A D1 state folder with the migrations applied, made once per set of migrations and copied for each wrangler:
 * `wrangler d1 migrations apply` takes seconds, a copy milliseconds.
 */
function migratedState(): string {
  const files = fs.readdirSync(MIGRATIONS).sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS, file)));
  const template = path.join(os.tmpdir(), `imagegate-harness-d1-${hash.digest('hex').slice(0, 12)}`);
  if (!fs.existsSync(template)) {
    const building = fs.mkdtempSync(`${template}-building-`);
    applyMigrations(building, CONFIG);
    try {
      fs.renameSync(building, template);
    } catch {
      // Another test process made it first.
      fs.rmSync(building, { recursive: true, force: true });
    }
  }
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-harness-'));
  fs.cpSync(template, state, { recursive: true });
  return state;
}

let shared: Promise<WranglerDev> | undefined;

/** One `wrangler dev` per test file, started by its first harness; each harness then resets it. */
function sharedWrangler(adminKey: string): Promise<WranglerDev> {
  shared ??= startWranglerDev(migratedState(), { ADMIN_API_KEY: adminKey, LOG_LEVEL: process.env.HARNESS_LOG_LEVEL ?? 'silent' }, CONFIG);
  return shared;
}

/** Stops the file's wrangler (the wrangler-dev project's setup file runs it after each file). */
export async function stopSharedWrangler(): Promise<void> {
  const dev = await shared?.catch(() => undefined);
  shared = undefined;
  if (dev === undefined) return;
  await dev.stop();
  // HARNESS_LOG_LEVEL=error (or another level) shows what the service logged, for a failure to explain itself.
  if (process.env.HARNESS_LOG_LEVEL !== undefined) console.log(dev.output());
  fs.rmSync(dev.persistTo, { recursive: true, force: true });
}

const refused = (what: string): never => {
  throw new Error(`${what}: the service runs in wrangler dev's workerd, not in this process; mark the test inProcessOnly`);
};

/**
 * The harness of the wrangler-dev project: the same suites, against `wrangler dev` of the test entry
 * (test/runtimes/wrangler-dev/harness) over a real socket. Storage starts empty for each harness, and the clock is the
 * harness's, sent with every request.
 */
export async function createWranglerHarness(
  options: HarnessOptions,
  clock: TestClock,
  adminKey: string,
  reset: Omit<HarnessReset, 'clock' | 'workers' | 'generationJobs' | 'providers'>,
): Promise<Harness> {
  const given: string[] = IN_PROCESS_OPTIONS.filter((name) => options[name] !== undefined);
  if (options.allowPrivateNetworks === false) given.push('allowPrivateNetworks');
  if (given.length > 0) refused(`createHarness({ ${given.join(', ')} })`);
  const dev = await sharedWrangler(adminKey);
  const bridge = options.providers === undefined ? undefined : await serveProviders(options.providers);
  const settings: HarnessReset = {
    ...reset,
    clock: clock.now().getTime(),
    workers: options.workers !== false,
    generationJobs: options.generationJobs !== false,
    providers: bridge === undefined ? undefined : { ids: Object.keys(options.providers ?? {}), url: bridge.url },
  };
  const answer = await fetch(`${dev.url}/__harness/reset`, { method: 'POST', body: JSON.stringify(settings) });
  if (answer.status !== 204) {
    await bridge?.close();
    throw new Error(`the harness worker could not reset (${answer.status}): ${await answer.text()}\n${dev.output().slice(-4000)}`);
  }
  // Whatever origin a test's URL names (Hono's app.request takes paths and http://localhost URLs), wrangler's.
  const onDev = (url: string): string => {
    const { pathname, search } = new URL(url, dev.url);
    return `${dev.url}${pathname}${search}`;
  };
  const send = (request: Request): Promise<Response> => {
    const sent = new Request(onDev(request.url), request);
    sent.headers.set(HARNESS_CLOCK_HEADER, String(clock.now().getTime()));
    return fetch(sent);
  };
  const app: HarnessApp = {
    request: (input, init) => send(input instanceof Request ? new Request(input, init) : new Request(onDev(String(input)), init)),
    fetch: send,
  };
  // What tests look at in storage, answered by the harness worker from R2; nothing here writes to it.
  const blobs = new Proxy({} as TestBlobStore, {
    get(_target, name) {
      if (name === 'keys') return async () => (await fetch(`${dev.url}/__harness/blobs`)).json() as Promise<string[]>;
      if (name === 'get') return storedAt;
      // The Worker's composition: R2 served at PUBLIC_BASE_URL/files (the harness worker sets no R2_PUBLIC_URL).
      if (name === 'publicUrl') return (key: string) => `${dev.url}/files/${key}`;
      return refused(`harness.blobs.${String(name)}`);
    },
  });
  const storedAt = async (key: string): Promise<StoredBlob | undefined> => {
    const answer = await fetch(`${dev.url}/__harness/blobs/${encodeURIComponent(key)}`);
    if (answer.status === 404) return undefined;
    return { bytes: new Uint8Array(await answer.arrayBuffer()), contentType: answer.headers.get('Content-Type') ?? '' };
  };
  return {
    app,
    get deps(): Deps {
      return refused('harness.deps');
    },
    blobs,
    clock,
    fetchPublic: (url) => send(new Request(url)),
    call: async (method, route, body, headers) => app.request(route, callInit(options.config, method, body, headers)),
    async drainJobs() {
      const drained = await send(new Request(`${dev.url}/__harness/drain`, { method: 'POST' }));
      if (drained.status !== 204) throw new Error(`the harness worker could not drain its jobs: ${await drained.text()}`);
    },
    close: async () => bridge?.close(),
  };
}
