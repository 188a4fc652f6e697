import pg from 'pg';
import { deleteRedisKeys } from '../../src/test-support/redis-keys.js';
import type { S3TestServer } from '../../src/test-support/s3-server.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../src/test-support/services.js';

/** Runs one statement as the test server's superuser (creating and dropping each test's own database). */
export async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The settings that point imagegate's processes at a test S3 server (s3rver), as a deployment would set them. */
export const s3Env = (s3: S3TestServer, bucket: string): Record<string, string> => ({
  STORAGE_DRIVER: 's3',
  S3_BUCKET: bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_FORCE_PATH_STYLE: 'true',
  S3_PUBLIC_URL: `${s3.endpoint}/${bucket}`,
  AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
  AWS_REGION: s3.region,
});

/** One test's deployment: its own database on the test server, its own Redis key prefix, and an S3 bucket. */
export interface Deployment {
  database: string;
  redisPrefix: string;
  s3: S3TestServer;
  bucket: string;
  adminKey: string;
}

/**
 * The settings every process of a deployment test shares (API processes and workers alike): its database, Redis,
 * S3, the admin key, and webhooks allowed to reach the loopback receivers. A test adds its own on top.
 */
export function deploymentEnv(deployment: Deployment): Record<string, string> {
  const dbUrl = new URL(TEST_DATABASE_URL);
  dbUrl.pathname = `/${deployment.database}`;
  return {
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: deployment.redisPrefix,
    ...s3Env(deployment.s3, deployment.bucket),
    ADMIN_API_KEY: deployment.adminKey,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
}

/** Removes what a deployment test leaves behind on the shared services: its Redis keys and its database. */
export async function dropDeployment(database: string, redisPrefix: string): Promise<void> {
  await deleteRedisKeys(redisPrefix);
  await adminQuery(`drop database if exists "${database}" with (force)`);
}
