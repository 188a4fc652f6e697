import fs from 'node:fs';
import path from 'node:path';
import { dataDirError } from './data-dir.js';
import { StartupError, errorCode } from './startup-error.js';

export const LOCK_FILE = 'imagegate.lock';

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours; idempotent. Also runs on process exit. */
  release(): void;
}

export interface DataDirLockOptions {
  pid?: number;
  /** Injected for tests; defaults to asking the OS (signal 0). */
  isAlive?: (pid: number) => boolean;
}

/**
 * Claims DATA_DIR for this process with `imagegate.lock`, holding the owner's pid. A lock whose pid is
 * gone (kill -9, power loss) is stale and taken over; a live owner stops start-up with a message
 * naming it. A lock holding our own pid is stale too: in a container every start may get the same pid.
 */
export function acquireDataDirLock(dataDir: string, options: DataDirLockOptions = {}): DataDirLock {
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processIsAlive;
  const file = path.join(dataDir, LOCK_FILE);

  // A few rounds only matter when several processes start on the same folder at the same moment.
  for (let round = 0; round < 5; round += 1) {
    if (createExclusive(dataDir, file, pid)) return holding(file, pid);
    const owner = readOwner(file);
    if (owner === 'missing') continue;
    if (owner !== undefined && owner !== pid && isAlive(owner)) throw lockedError(dataDir, file, owner);
    removeStale(dataDir, file, pid, isAlive);
  }
  throw new StartupError(`could not take the lock ${file}: other processes keep taking it; start one imagegate server per DATA_DIR`);
}

function holding(file: string, pid: number): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // Only our own lock: after a takeover race the file may name another process.
    if (readOwner(file) === pid) fs.rmSync(file, { force: true });
  };
  process.once('exit', release);
  return { file, release };
}

/**
 * Like `writeFile(..., { flag: 'wx' })`, but the lock never exists empty: the content is written to a
 * private file first and linked into place, which fails when the lock exists, as `wx` does.
 */
function createExclusive(dataDir: string, file: string, pid: number): boolean {
  const staged = `${file}.${pid}.new`;
  try {
    fs.writeFileSync(staged, `${pid}\n`);
    try {
      fs.linkSync(staged, file);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EXDEV'].includes(errorCode(error) ?? '')) throw error;
      // File systems without hard links: plain exclusive create.
      fs.writeFileSync(file, `${pid}\n`, { flag: 'wx' });
      return true;
    } finally {
      fs.rmSync(staged, { force: true });
    }
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw dataDirError(dataDir, error);
  }
}

/** The pid in a lock file; undefined when unreadable as a pid; 'missing' when the file is gone. */
function readOwner(file: string): number | undefined | 'missing' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'missing';
    throw error;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Moves the stale lock aside under a name of our own (a rename is atomic, so of two processes taking
 * over only one gets it), then checks that what we moved is still the stale one and not a lock another
 * process took in between; that one goes back.
 */
function removeStale(dataDir: string, file: string, pid: number, isAlive: (pid: number) => boolean): void {
  const aside = `${file}.${pid}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw dataDirError(dataDir, error);
  }
  const moved = readOwner(aside);
  if (typeof moved === 'number' && moved !== pid && isAlive(moved)) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // Someone else holds the lock now; they win either way.
    }
    fs.rmSync(aside, { force: true });
    throw lockedError(dataDir, file, moved);
  }
  fs.rmSync(aside, { force: true });
}

/**
 * A live process holds DATA_DIR. Its own class, so a process that may share the folder (`imagegate mcp` beside a
 * server) can tell it from a folder it cannot use, and say so in its own words.
 */
export class DataDirLockedError extends StartupError {
  readonly dataDir: string;
  /** The pid of the process holding the lock. */
  readonly owner: number;

  constructor(dataDir: string, owner: number, file: string) {
    super(
      `DATA_DIR ${dataDir} is already served by process ${owner}; stop that server first or set DATA_DIR to another folder ` +
        `(if no imagegate server runs there, delete ${file})`,
    );
    this.dataDir = dataDir;
    this.owner = owner;
  }
}

function lockedError(dataDir: string, file: string, owner: number): DataDirLockedError {
  return new DataDirLockedError(dataDir, owner, file);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return errorCode(error) === 'EPERM';
  }
}
