import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { migrateCommand } from './migrate.js';

it('says which migrations it applied to an empty database, and that there were none the second time', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-migrate-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const out: string[] = [];
  expect(await migrateCommand(config, { out: (text) => out.push(text) })).toBe(0);
  expect(out[0]).toMatch(
    /: applied \d+ migrations \(001-initial, 002-api-keys, .*013-image-thumbnails, 014-gallery-version, 015-key-creators, 016-generations, 017-batch-generations, 018-fair-queue\); it is up to date$/,
  );
  await migrateCommand(config, { out: (text) => out.push(text) });
  expect(out[1]).toMatch(/is up to date; no migrations to apply$/);
});
