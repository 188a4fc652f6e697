import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = 'igk_e2e_admin_secret';

let server: ServerProcess;
let dataDir = '';
beforeAll(async () => {
  dataDir = tempDataDir();
  server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN });
});
afterAll(async () => {
  await server.stop();
});

const cli = (...args: string[]) => cliWith({}, ...args);

async function cliWith(env: Record<string, string>, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/runtimes/node/entry/node.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

const get = (key: string, pathname: string) => fetch(`${server.url}${pathname}`, { headers: { Authorization: `Bearer ${key}` } });

describe('imagegate keys (CLI) against a running server', () => {
  it('creates a key the running server accepts at once, lists it, and revokes it', async () => {
    const created = await cli('keys', 'create', '--name', 'ci', '--permissions', 'generate,read', '--plan', 'pro', '--user', 'alice', '--json');
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; user_id: string; rate_limit: number };
    expect(key).toMatchObject({ user_id: 'alice', rate_limit: 500 });

    const res = await get(key.key, '/api/images');
    expect(res.status).toBe(200);
    expect(res.headers.get('X-RateLimit-Limit')).toBe('500');

    const listed = await cli('keys', 'list', '--user', 'alice');
    expect(listed.stdout).toContain(key.id);
    expect(listed.stdout).toContain('generate,read');
    expect(listed.stdout).not.toContain(key.key);

    const revoked = await cli('keys', 'revoke', key.id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${key.id}`);
    expect((await get(key.key, '/api/images')).status).toBe(401);
    // Three CLI processes start from TypeScript sources, a few seconds each on a busy 2-core machine.
  }, 60_000);

  it("names the server's database on stderr and does not warn about it", async () => {
    const listed = await cli('keys', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stderr.trim()).toBe(`imagegate: using database ${path.join(dataDir, 'imagegate.sqlite')}`);
  });

  it('warns when DATA_DIR points where no server database is', async () => {
    const elsewhere = path.join(tempDataDir(), 'data');
    const listed = await cliWith({ DATA_DIR: elsewhere }, 'keys', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain(`imagegate: using database ${path.join(elsewhere, 'imagegate.sqlite')}`);
    expect(listed.stderr).toContain(
      `warning: ${path.join(elsewhere, 'imagegate.sqlite')} did not exist and was just created empty; set DATA_DIR to the server's data folder`,
    );
  });

  it('prints the secret once in its human form', async () => {
    const created = await cli('keys', 'create', '--name', 'human', '--permissions', 'read');
    expect(created.stdout.split('\n')[0]).toMatch(/^igk_live_/);
    expect(created.stdout).toContain('shown once');
  });

  it('refuses bad arguments with a usage message and exit code 2', async () => {
    const bad = await cli('keys', 'create', '--name', 'x', '--permissions', 'read,fly');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--permissions must be one of "generate", "read", "manage" (got "fly")');
    const missing = await cli('keys', 'create', '--name', 'x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--permissions is required: one or more of read, generate, manage');
    expect((await cli('keys', 'revoke', 'key_missing')).code).toBe(1);
    // Three CLI processes from source, each transpiled by tsx as it starts: over 20 s on a loaded machine.
  }, 60_000);
});
