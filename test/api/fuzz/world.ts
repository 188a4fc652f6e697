import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createNodeApp } from '../../../src/runtimes/node/app.js';
import { createLocalBlobStore } from '../../../src/adapters/blob/local-blob-store.js';
import type { KyselyDatabase } from '../../../src/adapters/db/kysely-database.js';
import type { IdGenerator } from '../../../src/ports/ids.js';
import { createHarness, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { ALLOWED_IP, ALLOWED_IPS } from './arbitraries.js';
import type { FixtureName } from './json-text.js';
import type { Mode } from './request.js';
import { samples, type Samples } from './samples.js';

/** A fresh app for one run, with its fixtures made and a way to see everything it has stored. */
export interface World {
  mode: Mode;
  app: Harness['app'];
  harness: Harness;
  fixtures: Record<FixtureName, string>;
  /** The files forms send (real images made with sharp once, and files that only look like images). */
  samples: Samples;
  /** Every table's rows and every stored object, as comparable text per table (`blobs` for the objects). */
  snapshot(): Promise<Map<string, string>>;
  /** Requests the fixtures took. */
  setupRequests: number;
  close(): Promise<void>;
}

/** Ids in the production format, from a counter: the same seed then gives the same ids, run after run. */
function countingIds(): IdGenerator {
  let next = 0;
  return {
    newId(prefix) {
      next += 1;
      return `${prefix}_fz${next.toString(32).padStart(24, '0')}`;
    },
  };
}

/** Columns that change without any request storing anything (written at most once a minute, fire-and-forget). */
const VOLATILE = new Set(['api_keys.last_used_at']);

export async function createWorld(mode: Mode): Promise<World> {
  const harness = await createHarness({
    workers: false,
    ...(mode === 'ip_allowlist' ? { config: { authMode: 'ip_allowlist' as const, allowedIps: ALLOWED_IPS } } : {}),
  });
  harness.deps.ids = countingIds();
  let app = harness.app;
  let root: string | undefined;
  if (mode === 'local_files') {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'imagegate-fuzz-'));
    // In place, not a copy of the deps: the generation jobs this harness runs must store where this app reads.
    harness.deps.blobs = createLocalBlobStore({ root, publicBaseUrl: 'http://localhost:8787/files' });
    app = createNodeApp({ deps: harness.deps, config: { authMode: 'api_key', allowedIps: [], clientIpHeader: 'CF-Connecting-IP' }, serveFiles: true });
  }

  let setupRequests = 0;
  const setup = async (method: string, url: string, body?: unknown): Promise<Record<string, unknown>> => {
    setupRequests += 1;
    const headers: Record<string, string> = { Authorization: `Bearer ${TEST_KEY}`, 'CF-Connecting-IP': ALLOWED_IP.header! };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await app.request(`http://localhost${url}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`fuzz setup failed: ${method} ${url} answered ${res.status} ${text.slice(0, 500)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const image = await setup('POST', '/api/generate', { prompt: 'a red fox at dawn', model: 'local/procedural', width: 64, height: 64, seed: 1 });
  const collection = await setup('POST', '/api/collections', { name: 'fuzz collection' });
  await setup('POST', `/api/collections/${String(collection.id)}/images`, { image_id: image.id });
  const template = await setup('POST', '/api/templates', {
    name: 'fuzz template',
    model: 'local/procedural',
    default_prompt: 'a quiet harbour at night',
    parameters: { width: 64, height: 64 },
  });
  const batch = await setup('POST', '/api/batch/create', {
    name: 'fuzz batch',
    prompts: ['a red fox', 'a blue whale'],
    model: 'local/procedural',
    width: 64,
    height: 64,
  });
  const readKey =
    mode === 'ip_allowlist'
      ? { id: 'key_none', key: 'igk_none' }
      : await setup('POST', '/api/keys', { name: 'fuzz read-only', permissions: ['read'], plan: 'enterprise', rate_limit: 1_000_000 });

  const fixtures: Record<FixtureName, string> = {
    image: String(image.id),
    imageKey: String(image.r2_key),
    collection: String(collection.id),
    template: String(template.id),
    sampleTemplate: 'tmpl_sample_sunset_coast',
    batch: String(batch.id),
    readKeyId: String(readKey.id),
    adminKey: TEST_KEY,
    readKey: String(readKey.key),
  };

  const kysely = (harness.deps.db as KyselyDatabase).kysely;
  // Kysely's introspection works on every dialect (SQLite's catalogue, PostgreSQL's information_schema).
  const tables = (await kysely.introspection.getTables()).map((table) => table.name).sort();

  return {
    mode,
    app,
    harness,
    fixtures,
    samples: await samples(),
    setupRequests,
    async snapshot() {
      // What a request set going stays part of it (a generation's thumbnails come after its answer): finished first.
      await harness.deps.queue.drain();
      const state = new Map<string, string>();
      for (const table of tables) {
        const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(kysely);
        const lines = rows.map((row) =>
          JSON.stringify(
            Object.entries(row)
              .filter(([column]) => !VOLATILE.has(`${table}.${column}`))
              .map(([column, value]) => [
                column,
                typeof value === 'string' && value.length > 2000 ? `${value.length} chars: ${value.slice(0, 100)}…${value.slice(-100)}` : value,
              ]),
          ),
        );
        state.set(table, lines.sort().join('\n'));
      }
      state.set('blobs', (root === undefined ? await memoryObjects(harness) : await localObjects(root)).join('\n'));
      return state;
    },
    async close() {
      await harness.close();
      if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
    },
  };
}

async function memoryObjects(harness: Harness): Promise<string[]> {
  const out: string[] = [];
  for (const key of await harness.blobs.keys()) out.push(`${key} ${(await harness.blobs.get(key))?.bytes.length ?? '?'}`);
  return out;
}

async function localObjects(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push(`${path.relative(root, file)} ${(await fs.stat(file)).size}`);
  }
  return out.sort();
}

/** What changed between two snapshots, one line per table. */
export function describeChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [table, now] of after) {
    const then = before.get(table) ?? '';
    if (then === now) continue;
    const count = (text: string) => (text === '' ? 0 : text.split('\n').length);
    changes.push(`${table}: ${count(then)} → ${count(now)} rows${count(then) === count(now) ? ' (contents changed)' : ''}`);
  }
  return changes;
}
