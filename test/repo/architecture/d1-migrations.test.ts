import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { D1_MIGRATIONS_DIR, d1MigrationFiles } from '../../../scripts/d1-migrations.js';

describe('migrations/d1', () => {
  it('are exactly what the SQLite migrations generate (run npm run gen:d1-migrations after adding one)', async () => {
    const generated = await d1MigrationFiles();
    const committed = fs.readdirSync(D1_MIGRATIONS_DIR).sort();
    expect(committed, 'run npm run gen:d1-migrations').toEqual(generated.map(({ file }) => file));
    for (const { file, sql } of generated)
      expect(fs.readFileSync(path.join(D1_MIGRATIONS_DIR, file), 'utf8'), `${file}: run npm run gen:d1-migrations`).toBe(sql);
  });

  it('hold no statement D1 refuses in a migration file (a transaction of its own)', () => {
    for (const file of fs.readdirSync(D1_MIGRATIONS_DIR))
      expect(fs.readFileSync(path.join(D1_MIGRATIONS_DIR, file), 'utf8')).not.toMatch(/^\s*(begin|commit)\b/im);
  });
});
