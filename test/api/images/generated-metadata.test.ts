import sharp from 'sharp';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';

/** A generated picture says nothing about who asked for it or how: the prompt lives in the record, not the file. */
let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const PROMPT = 'my private studio at 12 Quiet Lane, unique-marker-7f3a';
const NEGATIVE = 'negative-marker-9c1e';

function pngChunkTypes(bytes: Buffer): string[] {
  const types: string[] = [];
  for (let at = 8; at + 8 <= bytes.byteLength; at += 12 + bytes.readUInt32BE(at)) types.push(bytes.toString('latin1', at + 4, at + 8));
  return types;
}

it('stores a generated PNG without text, time or EXIF chunks and without the prompt, and thumbnails without metadata', async () => {
  const res = await h.call('POST', '/api/generate', { prompt: PROMPT, negative_prompt: NEGATIVE, model: 'local/procedural', width: 128, height: 96 });
  expect(res.status).toBe(201);
  const image = await json<{ id: string; r2_url: string }>(res);
  const file = Buffer.from(await (await h.fetchPublic(image.r2_url)).arrayBuffer());
  expect(file.subarray(1, 4).toString('latin1')).toBe('PNG');
  const types = pngChunkTypes(file);
  expect(types).toContain('IDAT');
  for (const type of ['tEXt', 'iTXt', 'zTXt', 'eXIf', 'tIME']) expect(types).not.toContain(type);
  for (const marker of ['unique-marker-7f3a', 'Quiet Lane', NEGATIVE, 'local/procedural']) expect(file.includes(marker)).toBe(false);

  // Its thumbnails are made by their own job, after the answer.
  await h.drainJobs();
  const { thumbnails } = await json<{ thumbnails: Record<string, string> | null }>(await h.call('GET', `/api/images/${image.id}`));
  expect(Object.keys(thumbnails ?? {})).toHaveLength(2);
  for (const url of Object.values(thumbnails ?? {})) {
    const thumbnail = Buffer.from(await (await h.fetchPublic(url)).arrayBuffer());
    const metadata = await sharp(thumbnail).metadata();
    expect({ exif: metadata.exif, xmp: metadata.xmp }).toEqual({ exif: undefined, xmp: undefined });
    expect(thumbnail.includes('unique-marker-7f3a')).toBe(false);
  }
});
