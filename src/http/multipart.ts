import { z } from '@hono/zod-openapi';

/** A file in a multipart form, as the OpenAPI document describes it (`type: string, format: binary`). */
export const formFile = (field: string) =>
  z
    .custom<File>((value) => value instanceof File, { error: `${field} must be one file, sent as the multipart form field ${field}` })
    .openapi({ type: 'string', format: 'binary' });

/** The request body of a multipart operation, for createRoute. */
export const multipartBody = <T extends z.ZodType>(schema: T, description: string) => ({
  body: { content: { 'multipart/form-data': { schema } }, required: true, description },
});

/** The file's bytes (the form holds them in memory already: the body is limited to MAX_MULTIPART_BYTES). */
export const fileBytes = async (file: File): Promise<Uint8Array> => new Uint8Array(await file.arrayBuffer());
