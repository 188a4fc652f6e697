import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { keysCommand } from './keys.js';

async function run(dataDir: string, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await keysCommand(loadConfig({ DATA_DIR: dataDir }), argv, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out, err };
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-cli-'));

describe('imagegate keys: which database', () => {
  it('names the database it uses on stderr, as an absolute path', async () => {
    const dataDir = tempDir();
    const { code, err, out } = await run(dataDir, ['list']);
    expect(code).toBe(0);
    expect(err[0]).toBe(`imagegate: using database ${path.join(dataDir, 'imagegate.sqlite')}`);
    expect(out.join('\n')).not.toContain('using database');
  });

  it('warns when the database did not exist and was just created empty, and only then', async () => {
    const dataDir = path.join(tempDir(), 'nothing-here');
    const file = path.join(dataDir, 'imagegate.sqlite');
    const first = await run(dataDir, ['list']);
    expect(first.err).toContain(`warning: ${file} did not exist and was just created empty; set DATA_DIR to the server's data folder`);
    const second = await run(dataDir, ['create', '--name', 'ci', '--permissions', 'read']);
    expect(second.code).toBe(0);
    expect(second.err.join('\n')).not.toContain('warning');
  });

  it('creates no database for a usage error', async () => {
    const dataDir = path.join(tempDir(), 'untouched');
    const { code, err } = await run(dataDir, ['revoke']);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('Usage:');
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
