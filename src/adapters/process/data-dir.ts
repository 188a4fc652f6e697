import fs from 'node:fs';
import path from 'node:path';
import { StartupError, errorCode } from './startup-error.js';

/**
 * Makes sure DATA_DIR exists and this user can list and write it, before anything is created in it.
 * `access()` says yes to root everywhere, so a real write is the test (it also catches read-only mounts).
 */
export function prepareDataDir(dataDir: string, name = 'DATA_DIR'): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.readdirSync(dataDir);
    const probe = path.join(dataDir, `.imagegate-write-test-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
  } catch (error) {
    throw dataDirError(dataDir, error, name);
  }
}

/** One plain line saying what is wrong with the folder and what to do about it. */
export function dataDirError(folder: string, error: unknown, name = 'DATA_DIR'): StartupError {
  const it = `${name} ${folder}`;
  switch (errorCode(error)) {
    case 'ENOTDIR':
    case 'EEXIST':
      return new StartupError(`${it} is not a folder (it, or a folder above it, is a file); set DATA_DIR to a folder`);
    case 'EACCES':
    case 'EPERM':
      return new StartupError(`${it} is not readable and writable by this user; fix its permissions (chown/chmod) or set DATA_DIR to another folder`);
    case 'EROFS':
      return new StartupError(`${it} is on a read-only file system; set DATA_DIR to a writable folder`);
    case 'ENOSPC':
      return new StartupError(`${it} is on a full disk; free some space or set DATA_DIR to another folder`);
    default: {
      const reason = error instanceof Error ? error.message : String(error);
      return new StartupError(`${it} cannot be used (${reason}); set DATA_DIR to a folder this user can write`);
    }
  }
}
