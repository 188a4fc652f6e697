/**
 * Property-based fuzzing of `GET /files/<key>?download=<name>`, which anyone may ask for: over random Unicode names
 * (astral characters, emoji sequences, combining marks, control characters, bidirectional controls, lone
 * surrogates, quotes and percent signs), the answer is never a 5xx and its `Content-Disposition` is always a valid
 * header: printable ASCII, whose `filename*` decodes to well-formed text without control characters, at most
 * 100 UTF-16 units before the file's own extension.
 *
 *   FUZZ_SEED=<n>  seed (default 20261125)     FUZZ_RUNS=<n>  property runs (default 300)
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentHeader, MAX_DOWNLOAD_STEM } from '../../../src/http/routes/system/attachment.js';
import { createHarness, type Harness } from '../../../src/test-support/harness.js';
import { photoPng } from '../../support/sample-images.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const KEY = 'generated/img_download.png';

/** One "character" of a name: mostly ordinary text, often something a header or a file system cannot take. */
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((point) => String.fromCodePoint(point)) },
  { weight: 2, arbitrary: fc.constantFrom('\ud83d', '\ude00', '\udbff', '\udc00') },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u202e',
      '\u2066',
      '\u200f',
      '\u061c',
      '\ufeff',
      '\u200d',
      '\u0301',
      '\ud83d\udc4d\ud83c\udffd',
      '"',
      '\\',
      "'",
      '%',
      ';',
      ' ',
      '*',
      '(',
    ),
  },
);
/** Names around the cut at 100 units, where a character that takes two units (or a cluster) gets split. */
const atTheCut = fc
  .tuple(fc.integer({ min: MAX_DOWNLOAD_STEM - 8, max: MAX_DOWNLOAD_STEM }), fc.string({ unit, minLength: 1, maxLength: 8 }))
  .map(([length, tail]) => `${'n'.repeat(length)}${tail}`);
const wantedName = fc.oneof(fc.string({ unit, maxLength: 140 }), atTheCut, fc.string({ unit: 'grapheme-ascii', maxLength: 120 }));

/**
 * The query text a client would send for `name`, as UTF-8 percent-escapes; a lone surrogate as the three bytes
 * generalised UTF-8 gives it (`%ED%A0%BD`), which no decoder takes: the server sees it as the raw escape text.
 */
function percentEncode(name: string): string {
  let out = '';
  for (const point of name) {
    const code = point.codePointAt(0) ?? 0;
    const bytes =
      code >= 0xd800 && code <= 0xdfff ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)] : [...new TextEncoder().encode(point)];
    out += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** What makes a `Content-Disposition` value good: a valid header, and a name a save dialog can show. */
function expectValidAttachment(value: string | null | undefined): void {
  if (value === null || value === undefined) throw new Error('no Content-Disposition');
  expect(value).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!#$&+.^_`|~-]+$/);
  expect(() => new Headers({ 'Content-Disposition': value })).not.toThrow();
  const encoded = value.slice(value.indexOf("UTF-8''") + "UTF-8''".length);
  const name = decodeURIComponent(encoded);
  expect(name.isWellFormed()).toBe(true);
  // eslint-disable-next-line no-control-regex
  expect(name).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  expect(name.endsWith('.png')).toBe(true);
  expect(name.length - '.png'.length).toBeLessThanOrEqual(MAX_DOWNLOAD_STEM);
  expect(name.length).toBeGreaterThan('.png'.length);
}

describe('the download name, over random Unicode', () => {
  it('is always a valid header naming a well-formed file, whatever the name asked for', () => {
    fc.assert(
      fc.property(wantedName, (wanted) => {
        expectValidAttachment(attachmentHeader(KEY, wanted));
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  });

  it('keeps a plain name as asked, and names the file after its object when nothing showable is left', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,98}[A-Za-z0-9]$/), (wanted) => {
        expect(attachmentHeader(KEY, wanted)).toBe(`attachment; filename="${wanted}.png"; filename*=UTF-8''${encodeURIComponent(wanted)}.png`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const wanted of ['1', '', '   ', '\u0000\u0007', '\ud800', '\u202e']) {
      expect(attachmentHeader(KEY, wanted)).toBe(`attachment; filename="img_download.png"; filename*=UTF-8''img_download.png`);
    }
  });

  it('cuts a long name between characters: 99 letters and an emoji keep the letters, the emoji is not split', () => {
    const header = attachmentHeader(KEY, `${'a'.repeat(99)}\u{1f600}`);
    expect(decodeURIComponent(header.slice(header.indexOf("UTF-8''") + 7))).toBe(`${'a'.repeat(99)}.png`);
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';
    const kept = decodeURIComponent(attachmentHeader(KEY, `${'b'.repeat(95)}${family}`).split("UTF-8''")[1] ?? '');
    expect(kept).toBe(`${'b'.repeat(95)}.png`);
  });
});

describe('GET /files/<key>?download=<random Unicode>', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ workers: false });
    await h.deps.blobs.put(KEY, await photoPng(8, 8), 'image/png');
  });
  afterAll(async () => {
    await h.close();
  });

  it('answered 500 for 99 letters and an emoji; it saves the file named by the letters', async () => {
    const res = await h.app.request(`/files/${KEY}?download=${'a'.repeat(99)}%F0%9F%98%80`);
    expect(res.status).toBe(200);
    expectValidAttachment(res.headers.get('Content-Disposition'));
  });

  it('never answers a 5xx, and always with a valid attachment header', async () => {
    await fc.assert(
      fc.asyncProperty(wantedName, async (wanted) => {
        const res = await h.app.request(`/files/${KEY}?download=${percentEncode(wanted)}`);
        expect(res.status).toBe(200);
        expectValidAttachment(res.headers.get('Content-Disposition'));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
