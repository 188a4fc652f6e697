import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { migrationsFor } from '../../../../adapters/db/migrations/index.js';
import { migrateCommand } from './migrate.js';

it('says which migrations it applied to an empty database, and that there were none the second time', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-migrate-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const out: string[] = [];
  expect(await migrateCommand(config, { out: (text) => out.push(text) })).toBe(0);
  // Every migration there is, by name and in order (a new one joins the list without a change here).
  const names = Object.keys(migrationsFor('sqlite')).sort();
  expect(names.slice(0, 2)).toEqual(['001-initial', '002-api-keys']);
  expect(out[0]).toMatch(new RegExp(`: applied ${names.length} migrations \\(${names.join(', ')}\\); it is up to date$`));
  await migrateCommand(config, { out: (text) => out.push(text) });
  expect(out[1]).toMatch(/is up to date; no migrations to apply$/);
});
