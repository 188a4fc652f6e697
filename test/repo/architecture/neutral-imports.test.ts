import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

const RULES = new Set(['no-restricted-imports', 'no-restricted-globals', 'no-restricted-syntax']);

/** The neutral rules' messages for `code` as if it were the file at `file` (relative to the repository). */
async function restrictedImports(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId !== null && RULES.has(message.ruleId)).map((message) => message.message);
}

/** Where runtime-neutral code lives: the rule checks each file there, so the app must reach no file elsewhere. */
const NEUTRAL = /^src\/(domain|ports|http|mcp)\/|^src\/app\.ts$/;
const VALUE_IMPORT = /^(?:import|export)\s+(?!type\s)(?:[^;]*?\sfrom\s+)?'(\.[^']+)'/gm;

/** The source files `entry` loads at run time (type-only imports are erased), relative to the repository. */
function loadedFiles(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const [, specifier = ''] of source.matchAll(VALUE_IMPORT)) {
      visit(path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return seen;
}

describe('the runtime-neutral import rule (npm run lint)', () => {
  it('covers everything createApp loads: no file outside domain, ports, http and mcp', () => {
    const loaded = [...loadedFiles('src/app.ts')];
    expect(loaded.length).toBeGreaterThan(50);
    expect(loaded.filter((file) => !NEUTRAL.test(file))).toEqual([]);
  });

  it.each([
    ["import fs from 'node:fs';", 'src/domain/images/example.ts'],
    ["import { readFile } from 'fs/promises';", 'src/domain/images/example.ts'],
    ["import path from 'path';", 'src/ports/example.ts'],
    ["import { createHash } from 'crypto';", 'src/http/routes/example.ts'],
    ["import { createRequire } from 'module';", 'src/app.ts'],
    ["export { Worker } from 'node:worker_threads';", 'src/http/middleware/example.ts'],
    ["import Database from 'better-sqlite3';", 'src/domain/example.ts'],
    ["import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';", 'src/http/example.ts'],
    ["import { RateLimiterMemory } from 'rate-limiter-flexible';", 'src/ports/example.ts'],
    ["import sharp from 'sharp';", 'src/app.ts'],
    ["export const fs = await import('node:fs');", 'src/domain/example.ts'],
    ["export const fs = await import('fs');", 'src/domain/example.ts'],
    ["export const pg = await import('pg');", 'src/ports/example.ts'],
    ["export const otel = await import('@opentelemetry/exporter-trace-otlp-http');", 'src/mcp/example.ts'],
    ['export const level = process.env.LOG_LEVEL;', 'src/http/example.ts'],
    ["export const bytes = Buffer.from('x');", 'src/domain/example.ts'],
  ])('refuses %s in %s, saying why', async (code, file) => {
    const messages = await restrictedImports(code, file);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('runs on Workers too');
  });

  it.each([
    ["import { notFound } from '../../../domain/errors.js';", 'src/http/routes/example.ts'],
    ["import type { Deps } from './domain/context.js';", 'src/app.ts'],
    ["import { OpenAPIHono } from '@hono/zod-openapi';", 'src/app.ts'],
    ["import { trace } from '@opentelemetry/api';", 'src/http/example.ts'],
    ["export const page = await import('./page.js');", 'src/domain/example.ts'],
    ["export const pgx = await import('pgx');", 'src/domain/example.ts'],
    ['export const id = crypto.randomUUID();', 'src/http/example.ts'],
  ])('lets runtime-neutral imports through: %s in %s', async (code, file) => {
    expect(await restrictedImports(code, file)).toEqual([]);
  });

  it.each(['src/adapters/blob/example.ts', 'src/runtimes/node/entry/example.ts', 'src/runtimes/node/example.ts', 'src/domain/images/example.test.ts'])(
    'leaves Node-only code alone where it belongs: %s',
    async (file) => {
      expect(await restrictedImports("import fs from 'node:fs';", file)).toEqual([]);
    },
  );
});
