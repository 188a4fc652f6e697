import type { Config } from '../../../config/config.js';
import type { ReadinessCheck } from '../../../ports/readiness.js';
import { StartupError, errorCode } from '../../../adapters/process/startup-error.js';

/** How long start-up waits for each dependency's first answer. */
const STARTUP_CHECK_MS = 10_000;

/**
 * Every dependency answers before a process serves or takes jobs: the database (already migrated by then), the
 * storage taking a write and a delete, Redis when configured. A process that cannot use one exits 1 with one line
 * naming the setting to fix, instead of starting and answering every request with a 500.
 */
export async function checkDependencies(checks: readonly ReadinessCheck[], config: Config): Promise<void> {
  for (const check of checks) {
    try {
      await withTimeout(check.check(), STARTUP_CHECK_MS);
    } catch (error) {
      throw new StartupError(explain(check.name, error, config));
    }
  }
}

function explain(dependency: ReadinessCheck['name'], error: unknown, config: Config): string {
  const reason = error instanceof Error ? error.message : String(error);
  const code = rootCode(error) ?? '';
  if (dependency === 'redis') {
    return `cannot reach Redis at REDIS_URL (${redacted(config.redis?.url ?? '')}): ${reason}; start Redis or fix REDIS_URL`;
  }
  if (dependency === 'database') return `cannot use the database: ${reason}; check DATABASE_URL`;
  const s3 = config.storage.s3;
  if (s3 === undefined) return `cannot write to the blob store under DATA_DIR (${config.dataDir}): ${reason}; make it writable or set DATA_DIR`;
  const where = `the bucket ${s3.bucket}${s3.endpoint === undefined ? '' : ` at ${s3.endpoint}`}`;
  if (/region is missing/i.test(reason)) {
    return `cannot use ${where}: no region; set AWS_REGION (the bucket's region; any value such as us-east-1 for MinIO or s3rver, auto for Cloudflare R2)`;
  }
  if (/NoSuchBucket|does not exist/i.test(reason)) return `cannot use ${where}: it does not exist; create it or fix S3_BUCKET`;
  if (/AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|credential/i.test(reason)) {
    return `cannot write to ${where}: ${reason}; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY to a key that may write to it`;
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || /ECONNREFUSED|ENOTFOUND/.test(reason)) {
    return `cannot reach ${where}: nothing answers there; start the S3 server or fix S3_ENDPOINT`;
  }
  return `cannot write to ${where}: ${reason}; check the S3_* and AWS_* settings`;
}

/** A URL's password is never printed. */
const redacted = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

const rootCode = (error: unknown): string | undefined =>
  errorCode(error) ?? (error instanceof Error && error.cause !== undefined ? rootCode(error.cause) : undefined);

async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
