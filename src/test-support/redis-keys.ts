import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './services.js';

/** A prefix no other test (or engineer) shares, so tests on one Redis never see each other's keys. */
export const freshRedisPrefix = (name: string): string => `test-${name}-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Every key under `prefix:`, found with SCAN (never KEYS, which blocks a shared server). */
export async function redisKeysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/** Removes what a test left under its prefix. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const client = new Redis(TEST_REDIS_URL);
  try {
    const keys = await redisKeysUnder(client, prefix);
    for (let start = 0; start < keys.length; start += 500) await client.unlink(...keys.slice(start, start + 500));
  } finally {
    client.disconnect();
  }
}
