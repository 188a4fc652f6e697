import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, testCpuPool } from '../../../src/test-support/harness.js';
import { photoPng } from '../../api/inputs/images.js';
import { listenEach } from './listen-each.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

interface ImageRecord {
  id: string;
  width: number;
  height: number;
  r2_url: string;
}

/** generate_image over MCP: the record and the image block's bytes and type. */
async function generate(origin: string, args: Record<string, unknown>): Promise<{ record: ImageRecord; picture: Buffer; mimeType: string }> {
  const client = new Client({ name: 'imagegate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TEST_KEY}` } } }));
  try {
    const result = (await client.callTool({ name: 'generate_image', arguments: { model: 'local/procedural', ...args } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const block = result.content.find((item) => item.type === 'image');
    if (block?.type !== 'image') throw new Error(`generate_image answered without an image block: ${JSON.stringify(result.content).slice(0, 300)}`);
    return { record: result.structuredContent as unknown as ImageRecord, picture: Buffer.from(block.data, 'base64'), mimeType: block.mimeType };
  } finally {
    await client.close();
  }
}

describe('generate_image answers with a small preview, the full image at its r2_url', () => {
  const live = listenEach();

  it('shows a 1024x1024 image as a WebP of 512 px under 100 KB, and r2_url serves the full PNG', async () => {
    const { record, picture, mimeType } = await generate(live.server.origin, {
      prompt: 'a lighthouse on a cliff at sunset',
      width: 1024,
      height: 1024,
      seed: 3,
    });
    expect(mimeType).toBe('image/webp');
    const meta = await sharp(picture).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 512, height: 512 });
    expect(picture.byteLength).toBeLessThan(100 * 1024);

    expect(record).toMatchObject({ width: 1024, height: 1024 });
    const full = await live.h.fetchPublic(record.r2_url);
    expect(full.status).toBe(200);
    expect(full.headers.get('Content-Type')).toBe('image/png');
    const png = new Uint8Array(await full.arrayBuffer());
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(await sharp(png).metadata()).toMatchObject({ width: 1024, height: 1024 });
  }, 30_000);

  it('keeps the aspect ratio of a wide image and never enlarges a small one', async () => {
    const wide = await generate(live.server.origin, { prompt: 'a harbour in fog', width: 1024, height: 640 });
    expect(await sharp(wide.picture).metadata()).toMatchObject({ width: 512, height: 320 });
    const small = await generate(live.server.origin, { prompt: 'a harbour in fog', width: 200, height: 120 });
    expect(await sharp(small.picture).metadata()).toMatchObject({ format: 'webp', width: 200, height: 120 });
  }, 30_000);
});

describe('ImageCodec.encode with maxSide', () => {
  it('shrinks a PNG asked for as PNG, and keeps one that already fits byte for byte', async () => {
    const input = await photoPng(300, 100);
    const shrunk = await testCpuPool().encode(input, { format: 'png', maxSide: 150 });
    expect({ width: shrunk.width, height: shrunk.height, contentType: shrunk.contentType }).toEqual({ width: 150, height: 50, contentType: 'image/png' });
    expect(await sharp(shrunk.bytes).metadata()).toMatchObject({ width: 150, height: 50 });
    const kept = await testCpuPool().encode(input, { format: 'png', maxSide: 300 });
    expect(Buffer.from(kept.bytes).equals(Buffer.from(input))).toBe(true);
  });
});
