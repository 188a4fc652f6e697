import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { inProcessOnly } from '../../../src/test-support/in-process-only.js';
import { pngChunk, withChunkAfterHeader } from '../../support/broken-images.js';
import { photoPng } from '../../support/sample-images.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ workers: false });
});
afterAll(async () => {
  await h.close();
});

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'cross-origin-resource-policy': 'cross-origin',
  'x-content-type-options': 'nosniff',
};
const headersOf = (res: Response, names: readonly string[]): Record<string, string | null> =>
  Object.fromEntries(names.map((name) => [name, res.headers.get(name)]));

describe('GET /files/<key>', () => {
  const scriptPng = async () =>
    withChunkAfterHeader(
      await photoPng(16, 16),
      pngChunk('tEXt', new TextEncoder().encode('Comment\0<script>alert(document.cookie)</script><html><body onload=alert(1)>')),
    );
  /** Uploads the PNG and answers the bytes /files serves for it, checking the headers it serves them with. */
  const uploadAndServe = async (png: Buffer): Promise<Buffer> => {
    const form = new FormData();
    form.set('file', new File([new Uint8Array(png)], 'script.png', { type: 'image/png' }));
    const uploaded = await json(await h.call('POST', '/api/uploads', form));
    expect(uploaded.r2_key).toEqual(expect.stringMatching(/^uploads\/.+\.png$/));
    const res = await h.app.request(`/files/${String(uploaded.r2_key)}`);
    expect(res.status).toBe(200);
    expect(headersOf(res, ['content-type', ...Object.keys(SECURITY_HEADERS)])).toEqual({ 'content-type': 'image/png', ...SECURITY_HEADERS });
    return Buffer.from(await res.arrayBuffer());
  };

  it('serves a valid PNG carrying <script> in a text chunk as an image no page can run, without the chunk', async () => {
    // By default the text chunk is not even stored (uploads lose their metadata).
    expect((await uploadAndServe(await scriptPng())).includes('<script>')).toBe(false);
  });

  inProcessOnly.it('serves that PNG kept byte for byte (UPLOAD_METADATA=keep) with headers that still let no page run it', async () => {
    const png = await scriptPng();
    h.deps.uploadMetadata = 'keep';
    try {
      expect((await uploadAndServe(png)).equals(png)).toBe(true);
    } finally {
      h.deps.uploadMetadata = 'strip';
    }
  });

  it('holds its 404 to the same headers: the answer names the key asked for', async () => {
    const res = await h.app.request('/files/generated/%3Cscript%3E.png');
    expect(res.status).toBe(404);
    expect(headersOf(res, Object.keys(SECURITY_HEADERS))).toEqual(SECURITY_HEADERS);
  });

  // The wrangler-dev harness cannot put an object with a type of the test's choosing.
  inProcessOnly.it("takes the type from the key's extension as stored, never from the bytes or a stored type", async () => {
    const png = await photoPng(8, 8);
    await h.deps.blobs.put('generated/typed.webp', png, 'text/html');
    await h.deps.blobs.put('generated/page.html', new TextEncoder().encode('<script>alert(1)</script>'), 'text/html');
    await h.deps.blobs.put('generated/no-extension', png, 'image/png');
    const types = await Promise.all(
      ['generated/typed.webp', 'generated/page.html', 'generated/no-extension'].map(async (key) =>
        (await h.app.request(`/files/${key}`)).headers.get('content-type'),
      ),
    );
    expect(types).toEqual(['image/webp', 'application/octet-stream', 'application/octet-stream']);
  });
});
