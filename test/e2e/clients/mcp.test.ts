import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, json } from '../../../src/test-support/harness.js';
import { freePort, startServerProcess, tempDataDir } from '../spawn-server.js';
import { createKeyFor } from '../../api/keys/key-helpers.js';
import { listenEach, listenEachWithStandIn } from './listen-each.js';
import { photoPng, maskPng } from '../../api/inputs/images.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const TOOLS = [
  'add_to_collection',
  'cancel_generation',
  'create_batch',
  'create_collection',
  'delete_image',
  'generate_image',
  'get_batch',
  'get_costs',
  'get_generation',
  'get_image',
  'list_images',
  'list_models',
  'upload_image',
];

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const structured = <T = Record<string, unknown>>(result: CallToolResult) => result.structuredContent as T;

async function httpClient(origin: string, key: string): Promise<Client> {
  const client = new Client({ name: 'imagegate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

describe('MCP over streamable HTTP', () => {
  const live = listenEach();

  it('answers 401 without a key', async () => {
    const res = await fetch(`${live.server.origin}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
  });

  it('lists the tools and generates an image: the record, a preview, and the image in the gallery', async () => {
    const client = await httpClient(live.server.origin, TEST_KEY);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools.tools) expect(tool.description?.length ?? 0).toBeGreaterThan(20);

    const result = await call(client, 'generate_image', { prompt: 'a lighthouse on a cliff', model: 'local/procedural', width: 128, height: 96, seed: 7 });
    expect(result.isError).toBeFalsy();
    const image = structured<{ id: string; width: number; r2_url: string; parameters: { seed: number } }>(result);
    expect(image).toMatchObject({ width: 128, parameters: { seed: 7 } });
    const picture = result.content.find((block) => block.type === 'image');
    // A preview (see mcp-preview.test.ts): WebP, and at this size not shrunk.
    expect(picture?.type === 'image' && picture.mimeType).toBe('image/webp');
    const preview = Buffer.from(picture?.type === 'image' ? picture.data : '', 'base64');
    expect([preview.subarray(0, 4).toString('latin1'), preview.subarray(8, 12).toString('latin1')]).toEqual(['RIFF', 'WEBP']);
    const listed = await json<{ images: { id: string }[] }>(await live.h.call('GET', '/api/images'));
    expect(listed.images.map((i) => i.id)).toEqual([image.id]);

    expect(structured<{ images: { id: string }[] }>(await call(client, 'list_images', { query: 'lighthouse' })).images).toHaveLength(1);
    expect(structured(await call(client, 'get_image', { id: image.id }))).toMatchObject({ id: image.id });
    const collection = structured<{ id: string }>(await call(client, 'create_collection', { name: 'Moodboard' }));
    expect((await call(client, 'add_to_collection', { collection_id: collection.id, image_id: image.id })).isError).toBeFalsy();
    expect(structured(await call(client, 'get_costs'))).toMatchObject({ total_images: 1 });
    const models = structured<{ models: { id: string }[] }>(await call(client, 'list_models'));
    expect(models.models.map((m) => m.id)).toContain('local/procedural');
    expect(structured(await call(client, 'delete_image', { id: image.id }))).toMatchObject({ id: image.id, deleted: true });
    const missing = await call(client, 'get_image', { id: image.id });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toMatch(/NOT_FOUND/);
    await client.close();
  });

  it('streams progress notifications before the result to a client that sends a progress token', async () => {
    const client = await httpClient(live.server.origin, TEST_KEY);
    const messages: (string | undefined)[] = [];
    const result = (await client.callTool(
      { name: 'generate_image', arguments: { prompt: 'a lighthouse on a cliff', model: 'local/procedural', width: 64, height: 64 } },
      undefined,
      {
        onprogress: (progress) => messages.push(progress.message),
      },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({ width: 64 });
    expect(messages[0]).toMatch(/^queued: /);
    expect(messages.at(-1)).toBe('completed');
    // Without a token the answer stays plain JSON (test/api/mcp/rpc.ts reads it so).
    expect((await call(client, 'get_costs')).isError).toBeFalsy();
    await client.close();
  });

  it('creates a batch and reads it back until it completes', async () => {
    const client = await httpClient(live.server.origin, TEST_KEY);
    const batch = structured<{ id: string }>(
      await call(client, 'create_batch', { prompts: ['a red fox', 'a blue whale'], model: 'local/procedural', width: 64, height: 64 }),
    );
    let state = structured<{ status: string; images: unknown[] }>(await call(client, 'get_batch', { id: batch.id }));
    for (let i = 0; i < 200 && state.status !== 'completed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      state = structured(await call(client, 'get_batch', { id: batch.id }));
    }
    expect(state.status).toBe('completed');
    expect(state.images).toHaveLength(2);
    await client.close();
  });

  it("applies the key's permissions: a read-only key gets a tool error on generate", async () => {
    const { key } = await createKeyFor(live.h, { name: 'reader', permissions: ['read'] });
    const client = await httpClient(live.server.origin, key);
    const refused = await call(client, 'generate_image', { prompt: 'a lake at night' });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/FORBIDDEN/);
    expect((await call(client, 'list_images')).isError).toBeFalsy();
    expect((await json<{ images: unknown[] }>(await live.h.call('GET', '/api/images'))).images).toHaveLength(0);
    const upload = await call(client, 'upload_image', { data: Buffer.from(await photoPng(16, 16)).toString('base64') });
    expect(upload.isError).toBe(true);
    expect(JSON.stringify(upload.content)).toMatch(/FORBIDDEN/);
    await client.close();
  });

  it('uploads an image as base64 and edits it inside a mask with generate_image', async () => {
    const client = await httpClient(live.server.origin, TEST_KEY);
    const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    const input = structured<{ id: string; kind: string }>(await call(client, 'upload_image', { data: base64(await photoPng(96, 64)), filename: 'room.png' }));
    expect(input.kind).toBe('upload');
    const mask = structured<{ id: string }>(
      await call(client, 'upload_image', { data: `data:image/png;base64,${base64(await maskPng(96, 64, { left: 0, top: 0, width: 16, height: 16 }))}` }),
    );
    const edit = await call(client, 'generate_image', { prompt: 'a green armchair', model: 'local/procedural', image_ids: [input.id], mask_image_id: mask.id });
    expect(edit.isError).toBeFalsy();
    expect(structured(edit)).toMatchObject({ width: 96, height: 64, source_image_ids: [input.id] });
    const notImage = await call(client, 'upload_image', { data: base64(new TextEncoder().encode('plain text')) });
    expect(notImage.isError).toBe(true);
    expect(JSON.stringify(notImage.content)).toMatch(/not a PNG, JPEG or WebP/);
    await client.close();
  });
});

describe('MCP over stdio (imagegate mcp)', () => {
  it('runs as the user of IMAGEGATE_API_KEY on the configured database and storage', async () => {
    const key = 'igk_live_mcp_stdio_test_key_0123456789';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(ROOT, 'src/runtimes/node/entry/node.ts'), 'mcp'],
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATA_DIR: tempDataDir(),
        ADMIN_API_KEY: key,
        IMAGEGATE_API_KEY: key,
        LOG_LEVEL: 'warn',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'imagegate-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      const result = await call(client, 'generate_image', { prompt: 'a harbour in fog', width: 64, height: 64 });
      expect(result.isError).toBeFalsy();
      const image = structured<{ id: string; user_id: string }>(result);
      expect(image.user_id).toBe('admin');
      const listed = structured<{ images: { id: string }[] }>(await call(client, 'list_images'));
      expect(listed.images.map((i) => i.id)).toEqual([image.id]);
      expect(result.content.some((block) => block.type === 'image')).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('beside a server on the same DATA_DIR, leaves the batch prompts to it (one consumer of the embedded queue)', async () => {
    const key = 'igk_live_mcp_beside_serve_key_0123456789';
    const dataDir = tempDataDir();
    const env = { DATA_DIR: dataDir, ADMIN_API_KEY: key, LOG_LEVEL: 'info' };
    const server = await startServerProcess({ ...env, PORT: String(await freePort()) });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(ROOT, 'src/runtimes/node/entry/node.ts'), 'mcp'],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, IMAGEGATE_API_KEY: key },
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const client = new Client({ name: 'imagegate-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const batch = structured<{ id: string }>(
        await call(client, 'create_batch', { prompts: ['a red fox', 'a blue whale'], model: 'local/procedural', width: 64, height: 64 }),
      );
      let state = structured<{ status: string; images: unknown[] }>(await call(client, 'get_batch', { id: batch.id }));
      for (let i = 0; i < 400 && state.status !== 'completed'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        state = structured(await call(client, 'get_batch', { id: batch.id }));
      }
      expect(state.status).toBe('completed');
      expect(state.images).toHaveLength(2);
      expect(log).toContain(`sharing DATA_DIR with the imagegate server running as process ${server.child.pid}`);
      expect(log).not.toContain('stop that server first');
    } finally {
      await client.close();
      await server.stop('SIGTERM');
    }
  }, 90_000);
});

describe('MCP tool calls spend within the key budget', () => {
  const live = listenEachWithStandIn();

  // One tools/call per POST (batches are refused, see test/api/mcp/mcp-rules.test.ts): the charge ledger still
  // reserves each call's cost, so calls past the budget are refused before any provider is paid.
  it('makes only as many images as the budget fits from a run of generate_image calls', async () => {
    const { key } = await createKeyFor(live.h, { name: 'mcp', permissions: ['generate', 'read'], daily_budget_usd: 0.015 });
    const client = await httpClient(live.server.origin, key);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(client, 'generate_image', { prompt: `a lighthouse, view ${i}`, model: 'replicate/black-forest-labs/flux-schnell', width: 256, height: 256 }),
      ),
    );
    await client.close();
    expect(live.standIn.calls()).toBe(5);
    expect(results.filter((result) => result.isError !== true)).toHaveLength(5);
    const refused = results.filter((result) => result.isError === true);
    expect(refused).toHaveLength(7);
    for (const result of refused) expect(JSON.stringify(result.content)).toMatch(/daily budget.*BUDGET_EXCEEDED/);
    const listed = await json<{ pagination: { total: number } }>(await live.h.call('GET', '/api/images'));
    expect(listed.pagination.total).toBe(5);
  });
});
