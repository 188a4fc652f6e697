import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

const running: ServerProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

/** A plain listener holding a port, as another program would. */
async function occupy(port: number): Promise<void> {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => blocker.close(() => resolve())));
}

/** Exactly one non-empty line of output, and no trace of a stack. */
function onlyLine(server: ServerProcess): string {
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(server.output()).not.toMatch(/\n\s+at /);
  return lines[0] ?? '';
}

/** The pid of a process that has certainly ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}

describe('start-up failures (real processes)', () => {
  it('on a busy port, exits 1 with one line naming the port, and creates no admin key', async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    await occupy(port);
    const failed = await start({ DATA_DIR: dataDir, PORT: String(port) });
    expect(await failed.exited).toBe(1);
    expect(onlyLine(failed)).toBe(`imagegate: port ${port} is already in use on 127.0.0.1; stop the other process or set PORT`);
    expect(fs.existsSync(path.join(dataDir, 'imagegate.lock'))).toBe(false);

    const next = await start({ DATA_DIR: dataDir });
    const key = /"apiKey":"(igk_live_[^"]+)"/.exec(next.output())?.[1];
    expect(key).toBeDefined();
    expect((await fetch(`${next.url}/api/images`, { headers: { Authorization: `Bearer ${key ?? ''}` } })).status).toBe(200);
  });

  it('with DATA_DIR under a regular file, exits 1 with one line naming the folder', async () => {
    const file = path.join(tempDataDir(), 'not-a-folder');
    fs.writeFileSync(file, '');
    const dataDir = path.join(file, 'data');
    const failed = await start({ DATA_DIR: dataDir });
    expect(await failed.exited).toBe(1);
    expect(onlyLine(failed)).toBe(`imagegate: DATA_DIR ${dataDir} is not a folder (it, or a folder above it, is a file); set DATA_DIR to a folder`);
  });

  it('with an image folder that is not a folder, exits 1 with one line naming it', async () => {
    const dataDir = tempDataDir();
    fs.writeFileSync(path.join(dataDir, 'blobs'), '');
    const failed = await start({ DATA_DIR: dataDir });
    expect(await failed.exited).toBe(1);
    expect(onlyLine(failed)).toBe(
      `imagegate: the image folder ${path.join(dataDir, 'blobs')} is not a folder (it, or a folder above it, is a file); set DATA_DIR to a folder`,
    );
  });

  it.skipIf(process.getuid?.() === 0)('with a read-only DATA_DIR, exits 1 with one line naming the folder', async () => {
    const dataDir = tempDataDir();
    fs.chmodSync(dataDir, 0o500);
    closers.push(async () => fs.chmodSync(dataDir, 0o700));
    const failed = await start({ DATA_DIR: dataDir });
    expect(await failed.exited).toBe(1);
    expect(onlyLine(failed)).toContain(`imagegate: DATA_DIR ${dataDir} is not readable and writable by this user`);
  });
});

describe('one server per DATA_DIR (embedded mode)', () => {
  it('refuses a second server on a folder a live one serves, naming the folder and its pid', async () => {
    const dataDir = tempDataDir();
    const first = await start({ DATA_DIR: dataDir, ADMIN_API_KEY: 'igk_e2e_lock' });
    expect(fs.readFileSync(path.join(dataDir, 'imagegate.lock'), 'utf8').trim()).toBe(String(first.child.pid));

    const second = await start({ DATA_DIR: dataDir, ADMIN_API_KEY: 'igk_e2e_lock' });
    expect(await second.exited).toBe(1);
    expect(onlyLine(second)).toContain(`imagegate: DATA_DIR ${dataDir} is already served by process ${first.child.pid}; stop that server first`);
    expect((await fetch(`${first.url}/health`)).status).toBe(200);

    expect(await first.stop('SIGTERM')).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'imagegate.lock'))).toBe(false);
  });

  it('removes its lock on SIGINT too', async () => {
    const dataDir = tempDataDir();
    const server = await start({ DATA_DIR: dataDir, ADMIN_API_KEY: 'igk_e2e_lock' });
    expect(await server.stop('SIGINT')).toBe(0);
    expect(fs.readdirSync(dataDir).filter((name) => name.includes('lock'))).toEqual([]);
  });

  it('takes over the lock of a process that died (kill -9)', async () => {
    const dataDir = tempDataDir();
    const pid = await deadPid();
    fs.writeFileSync(path.join(dataDir, 'imagegate.lock'), `${pid}\n`);
    const server = await start({ DATA_DIR: dataDir, ADMIN_API_KEY: 'igk_e2e_lock' });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(fs.readFileSync(path.join(dataDir, 'imagegate.lock'), 'utf8').trim()).toBe(String(server.child.pid));
  });
});
