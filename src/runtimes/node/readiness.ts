import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { KyselyDatabase } from '../../adapters/db/kysely-database.js';
import type { BlobStore } from '../../ports/blob-store.js';
import type { Clock } from '../../ports/clock.js';
import type { ReadinessCheck } from '../../ports/readiness.js';

/**
 * At the bucket's top level, outside `generated/` and `uploads/`: no image has it and the orphan sweep never looks
 * there. One key per process: processes started together (two API processes and a worker) wrote and deleted one
 * shared key at the same moment, and one process's delete could remove another's object mid-probe. No folder: s3rver
 * (the S3 server of docs/deployment.md's one-machine run) removes a folder with its last object, and a put into it
 * at that moment crashed it (ENOENT), with two processes probing `readiness/probe-*`. The pid names the process in a
 * listing; the random part tells apart processes that share a pid (pid 1 in every container).
 */
const readinessProbeKey = (): string => `readiness-probe-${process.pid}-${randomBytes(6).toString('hex')}`;

/** A write-and-delete round trip costs a PUT and a DELETE: probes within this many ms share one answer. */
export const STORAGE_PROBE_CACHE_MS = 5_000;

/**
 * Storage is ready when it takes a write and a delete (a bucket that answers reads but refuses writes serves no
 * generation). The answer, good or bad, is kept for STORAGE_PROBE_CACHE_MS, so frequent probes (several load
 * balancers, Kubernetes) cost one round trip, and a failure shows within that time.
 */
export function storageProbe(blobs: BlobStore, clock: Clock): () => Promise<void> {
  let last: { at: number; result: Promise<void> } | undefined;
  const key = readinessProbeKey();
  const writeAndDelete = async (): Promise<void> => {
    await blobs.put(key, new TextEncoder().encode('ok'), 'text/plain');
    await blobs.delete(key);
  };
  return () => {
    const now = clock.now().getTime();
    if (last === undefined || now - last.at >= STORAGE_PROBE_CACHE_MS) {
      const result = writeAndDelete();
      // The cached promise must not be an unhandled rejection while nobody awaits it.
      result.catch(() => undefined);
      last = { at: now, result };
    }
    return last.result;
  };
}

/** What `/health/ready` asks, each a cheap round trip. */
export function readinessChecks(db: KyselyDatabase, blobs: BlobStore, redis: Redis | undefined, clock: Clock): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [
    { name: 'database', check: () => db.ping() },
    { name: 'storage', check: storageProbe(blobs, clock) },
  ];
  if (redis !== undefined) checks.push({ name: 'redis', check: async () => void (await redis.ping()) });
  return checks;
}
