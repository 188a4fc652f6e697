import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ADMIN_KEY, runCli, tempDir, type BenchServer } from './server.js';

export type Backend = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

export const backendLabel = (backend: Backend): string => (backend.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL');

interface Seeded {
  env: Record<string, string>;
  seconds: number;
}

/**
 * Seeded databases for this run only: seeding a million images takes minutes, so scenarios that only read
 * share one; everything is removed (folders deleted, schemas dropped) by `cleanup`, never kept across runs.
 */
export class SeedCache {
  private readonly seeded = new Map<string, Seeded>();
  private readonly dirs: string[] = [];
  private readonly schemas: { url: string; name: string }[] = [];
  private readonly runId = Date.now().toString(36);

  /** Environment (DATA_DIR, and DATABASE_URL/SCHEMA on PostgreSQL) of a database holding `count` images of the admin user. */
  async get(backend: Backend, count: number): Promise<Seeded> {
    const id = `${backend.kind}-${count}`;
    const cached = this.seeded.get(id);
    if (cached !== undefined) return cached;
    const dir = this.dir(id);
    const env: Record<string, string> = { DATA_DIR: dir };
    if (backend.kind === 'postgres') {
      const schema = `bench_${this.runId}_${count}`;
      this.schemas.push({ url: backend.url, name: schema });
      Object.assign(env, { DATABASE_URL: backend.url, DATABASE_SCHEMA: schema });
    }
    const seconds = await seed(count, env, backendLabel(backend));
    const result = { env, seconds };
    this.seeded.set(id, result);
    return result;
  }

  /**
   * A database of the caller's own, with `count` images seeded (none when 0): a new DATA_DIR, and on PostgreSQL a new
   * schema, removed by `cleanup` as the others are. For scenarios that write, so the shared seeds stay as seeded.
   */
  async own(backend: Backend, label: string, count: number): Promise<Record<string, string>> {
    const env: Record<string, string> = { DATA_DIR: this.dir(label) };
    if (backend.kind === 'postgres') {
      const schema = `bench_${this.runId}_${label.replaceAll(/[^a-z0-9]/g, '_')}`;
      this.schemas.push({ url: backend.url, name: schema });
      Object.assign(env, { DATABASE_URL: backend.url, DATABASE_SCHEMA: schema });
    }
    if (count > 0) await seed(count, env, backendLabel(backend));
    return env;
  }

  /** Seconds the seed of `count` images took in this run, if it ran. */
  seedSeconds(backend: Backend, count: number): number | undefined {
    return this.seeded.get(`${backend.kind}-${count}`)?.seconds;
  }

  /** A private copy of a seeded SQLite folder, for scenarios that write (generate) and must not change the shared one. */
  async copy(count: number): Promise<Record<string, string>> {
    const source = (await this.get({ kind: 'sqlite' }, count)).env.DATA_DIR ?? '';
    const dir = this.dir(`copy-${count}`);
    fs.cpSync(source, dir, { recursive: true, filter: (file) => path.basename(file) !== '.lock' });
    return { DATA_DIR: dir };
  }

  dir(label: string): string {
    const dir = tempDir(label);
    this.dirs.push(dir);
    return dir;
  }

  async cleanup(): Promise<void> {
    for (const dir of this.dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    for (const { url, name } of this.schemas.splice(0)) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists "${name}" cascade`);
      await client.end();
    }
    this.seeded.clear();
  }
}

/** `imagegate seed --images N`, printing its progress as a percentage; returns the seconds it took. */
export async function seed(count: number, env: Record<string, string>, label: string): Promise<number> {
  const started = performance.now();
  const total = count.toLocaleString('en-US');
  console.log(`  seeding ${total} images (${label})…`);
  await runCli(['seed', '--images', String(count)], env, (line) => {
    const match = /seed: ([\d,]+) of [\d,]+ images \(([\d,]+)\/s\)/.exec(line);
    if (match === null || match[1] === undefined) return;
    const done = Number(match[1].replaceAll(',', ''));
    console.log(`  seeding ${total} images (${label})… ${Math.floor((done / count) * 100)}% (${match[2] ?? '?'}/s)`);
  });
  return (performance.now() - started) / 1000;
}

/** An enterprise key of the admin user (who owns the seeded images) with a limit no bench run reaches, so 429s never count. */
export async function createBenchKey(server: BenchServer): Promise<string> {
  const response = await fetch(`${server.url}/api/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'bench', permissions: ['generate', 'read'], plan: 'enterprise', rate_limit: 1_000_000 }),
  });
  const body = (await response.json()) as { key?: unknown };
  if (response.status !== 201 || typeof body.key !== 'string') throw new Error(`POST /api/keys answered ${response.status}: ${JSON.stringify(body)}`);
  return body.key;
}

export const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });
