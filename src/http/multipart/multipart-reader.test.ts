import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../domain/errors.js';
import { createMemoryStaging } from './memory-staging.js';
import { readMultipartForm } from './read-form.js';
import { MultipartReader } from './multipart-reader.js';

const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', 'Request body too large');

/** A body that hands out `bytes` in chunks of the given sizes (cycled), as a socket would. */
function streamOf(bytes: Uint8Array, sizes: readonly number[]): ReadableStream<Uint8Array> {
  let at = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = Math.max(1, sizes[turn++ % sizes.length] ?? 1);
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** What a FormData is sent as (undici's encoder), and its boundary. */
async function encoded(form: FormData): Promise<{ bytes: Uint8Array; boundary: string }> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const boundary = /boundary=(.+)$/.exec(request.headers.get('content-type') ?? '')?.[1] ?? '';
  return { bytes: new Uint8Array(await request.arrayBuffer()), boundary };
}

const read = (bytes: Uint8Array, boundary: string, sizes: readonly number[] = [65_536], maxBytes = 1 << 30) =>
  readMultipartForm(streamOf(bytes, sizes), { boundary, staging: createMemoryStaging(), maxBytes, tooLarge });

describe('reading a multipart body as it streams in', () => {
  it('gives back the fields and files a FormData sent, however the body is cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.string(), fc.uint8Array({ maxLength: 3000 }))), { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 8 }),
        async (entries, sizes) => {
          const form = new FormData();
          for (const [name, value] of entries) {
            if (typeof value === 'string') form.append(name, value.replace(/\0/g, ''));
            else form.append(name, new File([value], `${name}.bin`, { type: 'application/octet-stream' }));
          }
          const { bytes, boundary } = await encoded(form);
          const received = await read(bytes, boundary, sizes);
          const got = await Promise.all(
            [...received.form.entries()].map(async ([name, value]) => [
              name,
              typeof value === 'string' ? value : [...new Uint8Array(await value.arrayBuffer())],
            ]),
          );
          const sent = await Promise.all(
            [...form.entries()].map(async ([name, value]) => [name, typeof value === 'string' ? value : [...new Uint8Array(await value.arrayBuffer())]]),
          );
          expect(got).toEqual(sent);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('hands a file on in pieces no larger than the chunks it came in, never whole', async () => {
    const file = new Uint8Array(5 * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
    const form = new FormData();
    form.append('file', new File([file], 'big.bin'));
    const { bytes, boundary } = await encoded(form);
    const reader = new MultipartReader(streamOf(bytes, [16_384]).getReader(), boundary, { maxBytes: 1 << 30, maxParts: 10, onTooLarge: tooLarge });
    expect(await reader.next()).toMatchObject({ name: 'file', filename: 'big.bin' });
    let largest = 0;
    let total = 0;
    for await (const chunk of reader.body()) {
      largest = Math.max(largest, chunk.byteLength);
      total += chunk.byteLength;
    }
    expect(total).toBe(file.length);
    expect(largest).toBeLessThanOrEqual(16_384);
    expect(await reader.next()).toBeUndefined();
  });

  it('answers the caller’s 413 once the body goes past its limit, without reading the rest', async () => {
    const form = new FormData();
    form.append('file', new File([new Uint8Array(200_000)], 'a.png'));
    const { bytes, boundary } = await encoded(form);
    const refused = await read(bytes, boundary, [10_000], 50_000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it.each([
    ['invalid UTF-8', [0x61, 0xff, 0x62]],
    ['a lone surrogate in UTF-8 form (ED A0 80)', [0x61, 0xed, 0xa0, 0x80]],
    ['a NUL', [0x61, 0x00, 0x62]],
  ])('refuses a text field with %s with a 400 naming the field, rather than altering it', async (_, value) => {
    const boundary = 'b0undary';
    const bytes = new Uint8Array([
      ...new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\n`),
      ...value,
      ...new TextEncoder().encode(`\r\n--${boundary}--\r\n`),
    ]);
    const refused = await read(bytes, boundary).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).toBody()).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'prompt' } });
  });

  it('says a body that ends inside a part could not be read', async () => {
    const boundary = 'b0undary';
    const bytes = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc`);
    const refused = await read(bytes, boundary).catch((error: unknown) => error);
    expect((refused as ApiError).toBody()).toMatchObject({ code: 'INVALID_REQUEST_BODY' });
    expect(JSON.stringify((refused as ApiError).toBody())).toContain('multipart body could not be read');
  });
});
