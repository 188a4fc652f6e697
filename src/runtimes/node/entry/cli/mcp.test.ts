import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../../../adapters/process/data-dir-lock.js';
import { loadConfig } from '../../config.js';
import { runsBatchPrompts } from './mcp.js';

interface Line {
  level: 'info' | 'warn';
  fields: object;
  message: string;
}

function recordingLogger(lines: Line[]) {
  return {
    info: (fields: object, message: string) => void lines.push({ level: 'info', fields, message }),
    warn: (fields: object, message: string) => void lines.push({ level: 'warn', fields, message }),
  };
}

const tempDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-mcp-'));

describe('imagegate mcp on the embedded database', () => {
  it('runs the batch prompts itself when no server holds DATA_DIR', () => {
    const config = loadConfig({ DATA_DIR: tempDataDir() });
    const lines: Line[] = [];
    const lock = runsBatchPrompts(config, recordingLogger(lines));
    expect(lock).toBeTruthy();
    if (lock) lock.release();
    expect(lines).toEqual([]);
  });

  it('beside a running server, says it shares the folder with it: no advice to stop that server', () => {
    const dataDir = tempDataDir();
    // A live process other than this one holds the lock, as `imagegate serve` would.
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), `${process.ppid}\n`);
    const lines: Line[] = [];
    expect(runsBatchPrompts(loadConfig({ DATA_DIR: dataDir }), recordingLogger(lines))).toBe(false);
    expect(lines).toEqual([
      {
        level: 'info',
        fields: { dataDir, serverPid: process.ppid },
        message: `sharing DATA_DIR with the imagegate server running as process ${process.ppid}: it runs the batch prompts, this MCP server serves the tools`,
      },
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/stop that server|already served/);
    expect(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(process.ppid));
  });

  it('on a database server, runs the batch prompts without any lock', () => {
    const config = loadConfig({ DATA_DIR: tempDataDir(), DATABASE_URL: 'postgres://user@127.0.0.1:5432/imagegate' });
    const lines: Line[] = [];
    expect(runsBatchPrompts(config, recordingLogger(lines))).toBeUndefined();
    expect(lines).toEqual([]);
  });
});
