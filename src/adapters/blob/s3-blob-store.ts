import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type ListMultipartUploadsCommandOutput,
} from '@aws-sdk/client-s3';
import { contentTypeOfKey, isSafeKey, type BlobObject, type BlobStore } from '../../ports/blob-store.js';
import type { Logger } from '../../ports/logger.js';
import { markIfTransient } from '../support/transient-errors.js';

export interface S3BlobStoreOptions {
  bucket: string;
  /** For S3-compatible services (R2, MinIO, ...); AWS S3 needs none. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO and most local servers). */
  forcePathStyle?: boolean;
  /** Base of every public URL (`S3_PUBLIC_URL`): a custom domain, an R2 public bucket URL, or a CDN. */
  publicBaseUrl: string;
  /** Otherwise the SDK's chain: `AWS_REGION`, the shared config file. */
  region?: string;
  /** Otherwise the SDK's chain: `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, shared files, instance or task roles. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** A ready client (tests, or custom middleware); the options above are then ignored but `bucket`. */
  client?: S3Client;
  /** Objects per page of `list` (default 1,000, S3's largest). */
  listPageSize?: number;
  /** Told once when the server cannot list unfinished uploads. */
  logger?: Logger;
}

/** The server has no such object (or the key is outside what it can address). */
const isMissing = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/** S3-compatible servers that do not implement an operation answer 501 NotImplemented. */
const isNotImplemented = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === 'NotImplemented' || error.$metadata.httpStatusCode === 501);

/** Node's error for a socket that broke or never connected, as the SDK passes it on, marked as the port says it. */
const sent = <T>(request: Promise<T>): Promise<T> =>
  request.catch((error: unknown) => {
    throw markIfTransient(error);
  });

/** Objects in an S3 bucket, each written whole by one PutObject, served by the bucket's public URL. */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const { bucket } = options;
  const pageSize = options.listPageSize ?? 1000;
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const client =
    options.client ??
    new S3Client({
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      region: options.region,
      credentials: options.credentials,
      // Checksums only where S3 requires them: several S3-compatible servers reject the newer defaults.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  let toldNoUploadListing = false;

  const checked = (key: string): string => {
    if (!isSafeKey(key)) throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
    return key;
  };

  return {
    async put(key, bytes, contentType) {
      await sent(
        client.send(new PutObjectCommand({ Bucket: bucket, Key: checked(key), Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength })),
      );
    },
    async get(key) {
      if (!isSafeKey(key)) return undefined;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (object.Body === undefined) return undefined;
        return { bytes: await object.Body.transformToByteArray(), contentType: object.ContentType ?? contentTypeOfKey(key) };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw markIfTransient(error);
      }
    },
    async delete(key) {
      // S3 answers a delete of a missing key with success, so this is idempotent as the port wants.
      await sent(client.send(new DeleteObjectCommand({ Bucket: bucket, Key: checked(key) })));
    },
    publicUrl(key) {
      return `${base}/${key}`;
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: pageSize, ContinuationToken: token }));
        const objects: BlobObject[] = [];
        for (const object of page.Contents ?? []) {
          // A key this service could not have written is not its object (the local store skips such files too).
          if (object.Key === undefined || !isSafeKey(object.Key)) continue;
          // Without a date the object counts as new, so a clean-up never takes it for an old orphan.
          objects.push({ key: object.Key, modifiedAt: object.LastModified ?? new Date() });
        }
        if (objects.length > 0) yield objects;
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
    },
    async removeIncomplete(olderThan) {
      // PutObject never leaves a partial object; what can be left are multipart uploads that were begun
      // and never completed or aborted (by a larger writer, or a tool), which S3 keeps and bills.
      const removed: string[] = [];
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      do {
        let page: ListMultipartUploadsCommandOutput;
        try {
          page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
        } catch (error) {
          if (!isNotImplemented(error)) throw error;
          if (!toldNoUploadListing) {
            options.logger?.warn({ bucket }, 'this S3 server cannot list multipart uploads; leave unfinished ones to a bucket lifecycle rule');
            toldNoUploadListing = true;
          }
          return removed;
        }
        for (const upload of page.Uploads ?? []) {
          if (upload.Key === undefined || upload.UploadId === undefined || !isSafeKey(upload.Key)) continue;
          if (upload.Initiated === undefined || upload.Initiated >= olderThan) continue;
          await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
          removed.push(`${upload.Key} (multipart upload ${upload.UploadId})`);
        }
        const more = page.IsTruncated === true;
        keyMarker = more ? page.NextKeyMarker : undefined;
        uploadIdMarker = more ? page.NextUploadIdMarker : undefined;
      } while (keyMarker !== undefined);
      return removed;
    },
  };
}
