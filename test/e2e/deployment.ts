import pg from 'pg';
import type { S3TestServer } from '../../src/test-support/s3-server.js';
import { TEST_DATABASE_URL } from '../../src/test-support/services.js';

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
