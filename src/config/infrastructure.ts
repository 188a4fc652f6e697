import { z } from 'zod';
import type { ConfigPaths } from './paths.js';

/**
 * Where data lives and how processes share work: SQLite, local disk and in-process queues by default;
 * PostgreSQL, S3-compatible storage and Redis when configured. Parsed with the rest of the environment.
 */
const optional = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();
const wholeMs = (min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number of milliseconds from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min} ms`).max(max, `must be at most ${max} ms`))
    .default(fallback);
const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

export const infrastructureEnv = {
  DATABASE_URL: optional.pipe(
    z
      .string()
      .regex(
        /^(postgres(ql)?:\/\/.+|sqlite:.+)$/,
        'must be postgres://user:password@host:5432/database, or sqlite:<file> (sqlite::memory: for a throwaway database)',
      )
      .optional(),
  ),
  DATABASE_SCHEMA: optional.pipe(
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case PostgreSQL schema name (letters, digits, _)')
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: wholeMs(100, 120_000, 5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: wholeMs(0, 3_600_000, 30_000),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: optional,
  S3_ENDPOINT: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  S3_FORCE_PATH_STYLE: flag('false'),
  S3_PUBLIC_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  REDIS_URL: optional.pipe(
    z
      .string()
      .regex(/^rediss?:\/\/.+/, 'must be redis://host:6379 (or rediss:// for TLS)')
      .optional(),
  ),
  REDIS_COMMAND_TIMEOUT_MS: wholeMs(50, 60_000, 1_000),
  RATE_LIMIT_FALLBACK: z
    .enum(['closed', 'memory'], { message: 'must be closed (answer 503 while Redis is out) or memory (count in this process meanwhile)' })
    .default('closed'),
  REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'may use letters, digits and _ . - (at most 64)')
    .default('imagegate'),
  WORKER_CONCURRENCY: optional.pipe(
    z.string().regex(/^\d+$/, 'must be a whole number from 1 to 256').transform(Number).pipe(z.number().int().min(1).max(256)).optional(),
  ),
  CPU_WORKERS: optional.pipe(
    z.string().regex(/^\d+$/, 'must be a whole number from 1 to 64').transform(Number).pipe(z.number().int().min(1).max(64)).optional(),
  ),
  ORPHAN_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(900),
};

type InfrastructureEnv = { [K in keyof typeof infrastructureEnv]?: z.infer<(typeof infrastructureEnv)[K]> } & {
  DATA_DIR: string;
  BATCH_CONCURRENCY: number;
  DATABASE_POOL_SIZE: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
  REDIS_COMMAND_TIMEOUT_MS: number;
  RATE_LIMIT_FALLBACK: 'closed' | 'memory';
  STORAGE_DRIVER: 'local' | 's3';
  S3_FORCE_PATH_STYLE: boolean;
  REDIS_PREFIX: string;
  ORPHAN_GRACE_SECONDS: number;
};

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; poolSize: number; schema: string | undefined; connectTimeoutMs: number; statementTimeoutMs: number };

export interface S3Config {
  bucket: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Base of every `r2_url`: `r2_url = publicUrl + "/" + r2_key`. */
  publicUrl: string;
}

export interface InfrastructureConfig {
  database: DatabaseConfig;
  storage: {
    driver: 'local' | 's3';
    s3: S3Config | undefined;
    /** Leftovers of a stopped process younger than this are kept at start: another process may still be writing them. */
    orphanGraceSeconds: number;
  };
  /**
   * Queues and rate-limit counters live here when set, shared by every process. `commandTimeoutMs` bounds a
   * rate-limit command; `rateLimitFallback` says what limits requests while Redis does not answer: nothing
   * (`closed`: 503) or a counter in this process (`memory`).
   */
  redis: { url: string; prefix: string; commandTimeoutMs: number; rateLimitFallback: 'closed' | 'memory' } | undefined;
  /**
   * Batch prompts one process runs at once, and the threads that draw and encode images (CPU_WORKERS;
   * undefined: one fewer than the CPUs).
   */
  worker: { concurrency: number; cpuThreads: number | undefined };
}

export function checkInfrastructure(env: Partial<InfrastructureEnv>, ctx: z.RefinementCtx): void {
  if (env.STORAGE_DRIVER === 's3') {
    for (const name of ['S3_BUCKET', 'S3_PUBLIC_URL'] as const) {
      if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: `STORAGE_DRIVER=s3 needs ${name} (see docs/deployment.md)` });
    }
  }
  if (env.DATABASE_SCHEMA !== undefined && !/^postgres/.test(env.DATABASE_URL ?? '')) {
    ctx.addIssue({ code: 'custom', path: ['DATABASE_SCHEMA'], message: 'applies only with DATABASE_URL=postgres://...' });
  }
}

export function infrastructureConfig(e: InfrastructureEnv, paths: ConfigPaths): InfrastructureConfig {
  return {
    database: databaseConfig(e, paths),
    storage: {
      driver: e.STORAGE_DRIVER,
      s3:
        e.STORAGE_DRIVER === 's3' && e.S3_BUCKET !== undefined && e.S3_PUBLIC_URL !== undefined
          ? { bucket: e.S3_BUCKET, endpoint: e.S3_ENDPOINT, forcePathStyle: e.S3_FORCE_PATH_STYLE, publicUrl: e.S3_PUBLIC_URL.replace(/\/+$/, '') }
          : undefined,
      orphanGraceSeconds: e.ORPHAN_GRACE_SECONDS,
    },
    redis:
      e.REDIS_URL === undefined
        ? undefined
        : { url: e.REDIS_URL, prefix: e.REDIS_PREFIX, commandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS, rateLimitFallback: e.RATE_LIMIT_FALLBACK },
    worker: { concurrency: e.WORKER_CONCURRENCY ?? e.BATCH_CONCURRENCY, cpuThreads: e.CPU_WORKERS },
  };
}

function databaseConfig(e: InfrastructureEnv, paths: ConfigPaths): DatabaseConfig {
  const url = e.DATABASE_URL;
  if (url === undefined) return { kind: 'sqlite', file: paths.join(paths.resolve(e.DATA_DIR), 'imagegate.sqlite') };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    return { kind: 'sqlite', file: file === ':memory:' ? file : paths.resolve(file) };
  }
  return {
    kind: 'postgres',
    url,
    poolSize: e.DATABASE_POOL_SIZE,
    schema: e.DATABASE_SCHEMA,
    connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
  };
}
