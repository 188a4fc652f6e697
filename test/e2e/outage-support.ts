import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { S3TestServer } from '../../src/test-support/s3-server.js';
import type { ServerProcess } from './spawn-server.js';

/** What the outage tests read of a batch. */
export interface OutageBatch {
  status: string;
  completed_count: number;
  failed_count: number;
  items: { image_id: string; status: string; error: string | null }[];
  images: { id: string }[];
}

/** A JSON call to a server process with `key`. */
export const callWith =
  (key: string) =>
  (server: ServerProcess, method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

/** The batch as an API process answers it now; undefined while the database is away (any error answer). */
export async function readBatch(call: ReturnType<typeof callWith>, server: ServerProcess, id: string): Promise<OutageBatch | undefined> {
  try {
    const res = await call(server, 'GET', `/api/batch/${id}`);
    return res.status === 200 ? ((await res.json()) as OutageBatch) : undefined;
  } catch {
    return undefined;
  }
}

/** The keys under `generated/` in the bucket: one per image once everything settled. */
export async function bucketKeys(s3: S3TestServer, bucket: string): Promise<string[]> {
  const client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: s3.region, credentials: s3.credentials });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'generated/' }));
    return (listed.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [object.Key]));
  } finally {
    client.destroy();
  }
}
