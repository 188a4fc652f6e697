import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBlobStore } from '../../../src/adapters/blob/memory-blob-store.js';
import { createSqliteDatabase } from '../../../src/adapters/db/sqlite.js';
import { createKeyAuthenticator } from '../../../src/domain/keys/authenticate.js';
import { startup } from '../../../src/domain/startup.js';
import type { BlobStore } from '../../../src/ports/blob-store.js';
import type { Database } from '../../../src/ports/database.js';
import { createIdGenerator } from '../../../src/ports/ids.js';

interface LogLine {
  level: number;
  msg: string;
  apiKey?: string;
}

let db: Database;
let lines: LogLine[];
const clock = { now: () => new Date('2026-11-24T10:00:00.000Z') };
const deps = (blobs: BlobStore = createMemoryBlobStore()) => ({
  db,
  blobs,
  clock,
  ids: createIdGenerator(),
  logger: pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) }),
});
const RECOVER = { orphanGraceSeconds: 900, callDeadlineMs: 60_000 };

beforeEach(async () => {
  lines = [];
  db = createSqliteDatabase(':memory:');
  await db.migrate();
});
afterEach(async () => {
  await db.close();
});

describe('startup', () => {
  it('makes the first admin key and logs its secret once; the next start makes and logs none', async () => {
    await startup(deps(), { adminKey: { secret: undefined, moreKeys: 'cli' }, recover: RECOVER, continuing: 'serving' });
    const printed = lines.filter((line) => line.apiKey !== undefined);
    expect(printed).toHaveLength(1);
    expect(await createKeyAuthenticator(deps()).authenticate(printed[0]?.apiKey ?? '')).toMatchObject({ isAdmin: true });

    lines = [];
    await startup(deps(), { adminKey: { secret: undefined, moreKeys: 'cli' }, recover: RECOVER, continuing: 'serving' });
    expect(lines.filter((line) => line.apiKey !== undefined)).toEqual([]);
    expect((await db.apiKeys.list(undefined, { limit: 10, offset: 0 })).total).toBe(1);
  });

  it('says how to make more keys where it runs: the CLI on Node, POST /api/keys on Workers (where no CLI runs)', async () => {
    await startup(deps(), { adminKey: { secret: undefined, moreKeys: 'cli' }, continuing: 'serving' });
    const node = lines.find((line) => line.apiKey !== undefined)?.msg ?? '';
    expect(node).toContain('Create more with: npx imagegate keys create --name <name> --permissions generate,read');

    await db.close();
    db = createSqliteDatabase(':memory:');
    await db.migrate();
    lines = [];
    await startup(deps(), { adminKey: { secret: undefined, moreKeys: 'http' }, continuing: 'serving' });
    const workers = lines.find((line) => line.apiKey !== undefined)?.msg ?? '';
    expect(workers).toContain('Create more with: POST /api/keys with this key');
    expect(workers).toContain(`/api/keys -H "Authorization: Bearer <this key>"`);
    expect(workers).not.toContain('imagegate keys create');
  });

  it('makes no key without the key-mode step (IP allow-list servers, worker processes)', async () => {
    await startup(deps(), { recover: RECOVER, continuing: 'working' });
    expect((await db.apiKeys.list(undefined, { limit: 10, offset: 0 })).total).toBe(0);
  });

  it('logs a failing clean-up and goes on starting, saying what the process does anyway', async () => {
    const blobs: BlobStore = { ...createMemoryBlobStore(), removeIncomplete: () => Promise.reject(new Error('storage is down')) };
    await expect(
      startup(deps(blobs), { adminKey: { secret: 'admin-secret', moreKeys: 'cli' }, recover: RECOVER, continuing: 'working' }),
    ).resolves.toBeUndefined();
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual(['could not clean leftovers from the blob store; working anyway']);
    expect(await createKeyAuthenticator(deps()).authenticate('admin-secret')).toMatchObject({ isAdmin: true });
  });

  it('cleans up nothing when the process runs no jobs', async () => {
    const blobs: BlobStore = { ...createMemoryBlobStore(), removeIncomplete: () => Promise.reject(new Error('must not be called')) };
    await startup(deps(blobs), { adminKey: { secret: 'admin-secret', moreKeys: 'cli' }, continuing: 'serving' });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
