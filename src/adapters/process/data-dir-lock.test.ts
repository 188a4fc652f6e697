import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE, acquireDataDirLock } from './data-dir-lock.js';
import { prepareDataDir } from './data-dir.js';
import { StartupError } from './startup-error.js';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-lock-'));
const alive = (pids: number[]) => (pid: number) => pids.includes(pid);
const lockContent = (dir: string) => fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim();

describe('the DATA_DIR lock', () => {
  it('holds the owner pid and is removed on release, once', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, { pid: 4242, isAlive: alive([4242]) });
    expect(lockContent(dir)).toBe('4242');
    lock.release();
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a second owner while the first is alive, naming the folder and the pid', () => {
    const dir = tempDir();
    const first = acquireDataDirLock(dir, { pid: 4242, isAlive: alive([4242, 5151]) });
    const second = () => acquireDataDirLock(dir, { pid: 5151, isAlive: alive([4242, 5151]) });
    expect(second).toThrow(StartupError);
    expect(second).toThrow(`DATA_DIR ${dir} is already served by process 4242`);
    expect(lockContent(dir)).toBe('4242');
    first.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('takes over a lock whose process is gone', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), '4242\n');
    const lock = acquireDataDirLock(dir, { pid: 5151, isAlive: alive([5151]) });
    expect(lockContent(dir)).toBe('5151');
    lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('takes over a lock holding its own pid (a container restarted with the same pid)', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), '1\n');
    acquireDataDirLock(dir, { pid: 1, isAlive: alive([1]) }).release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('takes over a lock whose content is not a pid', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), 'garbage');
    acquireDataDirLock(dir, { pid: 5151, isAlive: alive([5151]) });
    expect(lockContent(dir)).toBe('5151');
  });

  it('does not remove a lock that another process took over', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, { pid: 4242, isAlive: alive([4242]) });
    fs.writeFileSync(path.join(dir, LOCK_FILE), '5151\n');
    lock.release();
    expect(lockContent(dir)).toBe('5151');
  });

  it('asks the OS whether the owner lives: a real running process keeps its lock', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), `${process.ppid}\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(`already served by process ${process.ppid}`);
  });
});

describe('preparing DATA_DIR', () => {
  it('creates a missing folder', () => {
    const dir = path.join(tempDir(), 'a', 'b');
    prepareDataDir(dir);
    expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('explains in one line when a part of the path is a file', () => {
    const file = path.join(tempDir(), 'plain-file');
    fs.writeFileSync(file, '');
    const dir = path.join(file, 'data');
    expect(() => prepareDataDir(dir)).toThrow(`DATA_DIR ${dir} is not a folder (it, or a folder above it, is a file); set DATA_DIR to a folder`);
    expect(() => prepareDataDir(file)).toThrow(StartupError);
  });

  it.skipIf(process.getuid?.() === 0)('explains in one line when the folder is not writable', () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o500);
    try {
      expect(() => prepareDataDir(dir)).toThrow(`DATA_DIR ${dir} is not readable and writable by this user`);
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });
});
