import fs from 'node:fs';
import path from 'node:path';
import { D1_MIGRATIONS_DIR, d1MigrationFiles } from './d1-migrations.js';

// Writes migrations/d1/: D1's copy of the SQLite migrations (see d1-migrations.ts). Run after adding a migration.
fs.rmSync(D1_MIGRATIONS_DIR, { recursive: true, force: true });
fs.mkdirSync(D1_MIGRATIONS_DIR, { recursive: true });
const files = await d1MigrationFiles();
for (const { file, sql } of files) fs.writeFileSync(path.join(D1_MIGRATIONS_DIR, file), sql);
console.log(`wrote ${files.length} D1 migrations to ${path.relative(process.cwd(), D1_MIGRATIONS_DIR)}/`);
