import { z } from '@hono/zod-openapi';
import type { StagedFile } from '../ports/upload-staging.js';
import { stagedFileOf } from './multipart/read-form.js';

/** A file in a multipart form, as the OpenAPI document describes it (`type: string, format: binary`). */
export const formFile = (field: string) =>
  z
    .custom<File>((value) => value instanceof File, { error: `${field} must be one file, sent as the multipart form field ${field}` })
    .openapi({ type: 'string', format: 'binary' });

/** The request body of a multipart operation, for createRoute. */
export const multipartBody = <T extends z.ZodType>(schema: T, description: string) => ({
  body: { content: { 'multipart/form-data': { schema } }, required: true, description },
});

/**
 * A form file as the staging kept it (json-body.ts read the form as it streamed in): its size, first bytes and,
 * on Node, the path the CPU pool decodes it from. A File made elsewhere is read into memory.
 */
export async function stagedFile(file: File): Promise<StagedFile> {
  const staged = stagedFileOf(file);
  if (staged !== undefined) return staged;
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { size: bytes.byteLength, head: bytes, sha256: '', bytes: async () => bytes };
}
