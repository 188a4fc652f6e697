import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64Image, isRecord } from './http-support.js';
import { readJsonImage, type JsonImageBody } from './json-image-reader.js';

const firstItem = (json: Record<string, unknown>): unknown => (Array.isArray(json.data) ? json.data[0] : undefined);

/** An answer streamed in the given pieces (split at these byte offsets), with or without its Content-Length. */
function answer(text: string, cuts: readonly number[] = [], sized = true): Response {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set([0, ...cuts.map((cut) => Math.min(cut, bytes.length)), bytes.length])].sort((a, b) => a - b);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 1; i < points.length; i += 1) controller.enqueue(bytes.slice(points[i - 1], points[i]));
      controller.close();
    },
  });
  return new Response(body, { headers: sized ? { 'Content-Length': String(bytes.length) } : {} });
}

/** What the general path reads: Response.text() and JSON.parse, the string at data[0].b64_json decoded by base64Image. */
function expected(text: string): JsonImageBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { json: {}, isJson: false };
  }
  if (!isRecord(parsed)) return { json: {}, isJson: true };
  const item = firstItem(parsed);
  if (!isRecord(item) || typeof item.b64_json !== 'string') return { json: parsed, isJson: true };
  const value = item.b64_json;
  item.b64_json = '';
  return value === '' ? { json: parsed, isJson: true } : { json: parsed, isJson: true, image: base64Image(value) };
}

const read = (text: string, cuts: readonly number[] = [], sized = true) => readJsonImage(answer(text, cuts, sized), 'b64_json', firstItem);
const comparable = (body: JsonImageBody) => ({
  ...body,
  image: body.image === undefined ? undefined : { ...body.image, bytes: Buffer.from(body.image.bytes).toString('hex') },
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('readJsonImage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('decodes data[0].b64_json of an answer as OpenAI writes it, pretty-printed, without parsing the image string as JSON', async () => {
    const b64 = Buffer.concat([PNG, Buffer.alloc(200_000, 7)]).toString('base64');
    const text = JSON.stringify(
      { created: 1_700_000_000, background: 'opaque', data: [{ b64_json: b64 }], output_format: 'png', usage: { total_tokens: 4_176, input_tokens: 16 } },
      null,
      2,
    );
    const parse = vi.spyOn(JSON, 'parse');
    const body = await read(text, [10, 65_536, 131_072]);
    expect(parse.mock.calls.every(([source]) => String(source).length < 1_000)).toBe(true);
    expect(body.image?.contentType).toBe('image/png');
    expect(Buffer.from(body.image?.bytes ?? []).equals(Buffer.from(b64, 'base64'))).toBe(true);
    expect(body.json).toEqual({
      created: 1_700_000_000,
      background: 'opaque',
      data: [{ b64_json: '' }],
      output_format: 'png',
      usage: { total_tokens: 4_176, input_tokens: 16 },
    });
  });

  it('reads an answer without Content-Length (chunked), growing its room for the image', async () => {
    const b64 = Buffer.alloc(3_000_000, 9).toString('base64');
    const text = JSON.stringify({ data: [{ b64_json: b64 }] });
    const body = await read(text, [100, 70_000, 1_000_000, 3_000_000], false);
    expect(Buffer.from(body.image?.bytes ?? []).equals(Buffer.alloc(3_000_000, 9))).toBe(true);
  });

  it('reads escaped slashes (`\\/`, as PHP and some proxies write them) exactly as JSON.parse does', async () => {
    const b64 = Buffer.from([0xff, 0xef, 0xff, 0xfb, 0xf0, 0x3f]).toString('base64');
    expect(b64).toContain('/');
    const text = JSON.stringify({ data: [{ b64_json: b64 }] }).replaceAll('/', '\\/');
    expect(comparable(await read(text, [3]))).toEqual(comparable(expected(text)));
    expect(Buffer.from((await read(text)).image?.bytes ?? []).toString('base64')).toBe(b64);
  });

  it('reads base64 broken into MIME lines (`\\n` in the string) as the general parser does', async () => {
    const b64 = Buffer.alloc(300, 1).toString('base64');
    const lines = b64.match(/.{1,76}/g)?.join('\n') ?? '';
    const text = JSON.stringify({ data: [{ b64_json: lines }] });
    expect(comparable(await read(text, [40, 200]))).toEqual(comparable(expected(text)));
  });

  it('takes the image of data[0], not a b64_json key elsewhere in the answer', async () => {
    const decoy = Buffer.from('decoy').toString('base64');
    const real = PNG.toString('base64');
    for (const value of [
      { meta: { b64_json: decoy }, data: [{ b64_json: real }] },
      { note: 'b64_json', data: [{ b64_json: real }] },
      { data: [{ b64_json: decoy }, { b64_json: real }] },
      { 'x"b64_json': decoy, data: [{ b64_json: real }] },
      { 'x\\': 'y', data: [{ b64_json: real }] },
      { data: [{ url: 'https://files.example/image.png' }], b64_json: decoy },
      // The decoy's string read as '' would look like an empty data[0].b64_json: no image, as JSON.parse reads it.
      { meta: { b64_json: decoy }, data: [{ b64_json: '' }] },
    ]) {
      const text = JSON.stringify(value);
      expect(comparable(await read(text, [7, 30]))).toEqual(comparable(expected(text)));
    }
    // The same, the key of data[0] spelled with an escape.
    const spelled = `{"meta":{"b64_json":"${decoy}"},"data":[{"b64\\u005fjson":""}]}`;
    expect(expected(spelled).image).toBeUndefined();
    expect(comparable(await read(spelled))).toEqual(comparable(expected(spelled)));
  });

  it('lets the last of two duplicate keys win, as JSON.parse does', async () => {
    const text = `{"data":[{"b64_json":"${Buffer.from('first').toString('base64')}","b64_json":"${PNG.toString('base64')}"}]}`;
    const body = await read(text);
    expect(body.image?.contentType).toBe('image/png');
    expect(comparable(body)).toEqual(comparable(expected(text)));
  });

  it('answers an empty record for a body that is not JSON, or JSON that is not an object, as readBody does', async () => {
    expect(await read('<html>bad gateway</html>')).toEqual({ json: {}, isJson: false });
    expect(await read('{"data":[{"b64_json":"QUJD"}]')).toEqual({ json: {}, isJson: false });
    expect(await read('null')).toEqual({ json: {}, isJson: true });
    expect(await read('')).toEqual({ json: {}, isJson: false });
    expect(await readJsonImage(new Response(null), 'b64_json', firstItem)).toEqual({ json: {}, isJson: false });
  });

  it('has no image when the string is empty or not a string', async () => {
    expect(await read('{"data":[{"b64_json":""}]}')).toEqual({ json: { data: [{ b64_json: '' }] }, isJson: true });
    expect(await read('{"data":[{"b64_json":7}]}')).toEqual({ json: { data: [{ b64_json: 7 }] }, isJson: true });
  });

  it('decodes odd endings of the string (short, unpadded, misplaced padding) exactly as the general path does', async () => {
    for (const value of [
      'Q',
      'QQ',
      'QUI',
      '=',
      'QQ=',
      'QQ==',
      'QUJD=',
      'QUJDQ=',
      'QUJDQQ=',
      'QUJDQ',
      'QQ=A',
      'QQ==QUJD',
      'A===',
      'QUJD====',
      `${'QUJD'.repeat(40)}Q`,
    ]) {
      const text = JSON.stringify({ data: [{ b64_json: value }] });
      for (const cuts of [[], [22, 23, 24, 25], [26, 31]])
        expect(comparable(await read(text, cuts)), `${value} cut at ${cuts.join(',')}`).toEqual(comparable(expected(text)));
    }
  });

  it('reads any answer exactly as Response.text() and JSON.parse would, however it is cut into pieces', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=';
    const b64 = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('base64')),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('base64').replace(/=+$/, '')),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`),
      // Damaged: a character anywhere from the alphabet, or from anywhere.
      fc
        .tuple(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), fc.constantFrom(...alphabet.split(''), ' ', '*', 'é', '\n', '"', '\\'))
        .map(([bytes, at, char]) => {
          const text = Buffer.from(bytes).toString('base64');
          const i = at % (text.length + 1);
          return `${text.slice(0, i)}${char}${text.slice(i)}`;
        }),
    );
    const extra = fc.dictionary(
      fc.string({ maxLength: 12 }),
      fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant('b64_json'), fc.constant('\\u0062')),
      { maxKeys: 3 },
    );
    const shape = fc.record({ b64, before: extra, after: extra, inItem: extra, indent: fc.constantFrom(0, 2), escapeSlashes: fc.boolean(), bom: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(
        shape,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        async ({ b64: value, before, after, inItem, indent, escapeSlashes, bom }, cuts, sized) => {
          let text = JSON.stringify({ ...before, data: [{ b64_json: value, ...inItem }], ...after }, null, indent);
          if (escapeSlashes) text = text.replaceAll('/', '\\/');
          if (bom) text = `\uFEFF${text}`;
          const length = new TextEncoder().encode(text).length;
          expect(
            comparable(
              await read(
                text,
                cuts.map((cut) => cut % (length + 1)),
                sized,
              ),
            ),
          ).toEqual(comparable(expected(text)));
        },
      ),
      { numRuns: 400 },
    );
  });
});
