import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../src/domain/inputs/input-limits.js';
import { MAX_BODY_BYTES } from '../../../src/http/middleware/json-body.js';
import { MAX_MCP_BODY_BYTES } from '../../../src/http/routes/mcp/index.js';
import { TEST_KEY, json } from '../../../src/test-support/harness.js';
import { listenEach } from '../../e2e/clients/listen-each.js';
import { grainyPhoto } from '../../support/grainy-photo.js';
import { toolCall } from './rpc.js';

/** upload_image over POST /mcp takes what POST /api/uploads takes, in base64; other JSON keeps its 1 MiB. */
const live = listenEach();

const HEADERS = { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('MCP message size', () => {
  it('has room for a 50 MB file in base64 and the message around it', () => {
    expect(MAX_MCP_BODY_BYTES).toBeGreaterThanOrEqual(Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024);
  });

  it('uploads a 3 MB photograph with upload_image through the MCP SDK client over HTTP', async () => {
    const png = await grainyPhoto(1200, 900).png().toBuffer();
    // Over the old 1 MiB and over the SDK's default of 4 MiB once in base64.
    expect(png.byteLength).toBeGreaterThan(2_900_000);
    const client = new Client({ name: 'imagegate-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${live.server.origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TEST_KEY}` } } }),
    );
    try {
      const result = (await client.callTool({ name: 'upload_image', arguments: { data: png.toString('base64'), filename: 'grain.png' } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const image = result.structuredContent as { id: string; width: number; height: number; kind: string };
      expect(image).toMatchObject({ width: 1200, height: 900, kind: 'upload' });
      const stored = await json<{ id: string }>(await live.h.call('GET', `/api/images/${image.id}`));
      expect(stored.id).toBe(image.id);
    } finally {
      await client.close();
    }
  });

  it('refuses a message declared over the limit with 413 naming the limit in bytes, before reading it', async () => {
    const res = await live.h.app.request('http://localhost/mcp', {
      method: 'POST',
      headers: { ...HEADERS, 'Content-Length': String(MAX_MCP_BODY_BYTES + 1) },
      body: JSON.stringify(toolCall(1, 'upload_image', { data: 'AAAA' })),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('Connection')).toBe('close');
    const body = await json<{ code: string; details: { max_bytes: number; message: string } }>(res);
    expect(body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: MAX_MCP_BODY_BYTES } });
    expect(body.details.message).toContain(`${MAX_MCP_BODY_BYTES} bytes`);
  });

  it('refuses a streamed message that grows over the limit with the same 413', async () => {
    const chunk = new Uint8Array(4 * 1024 * 1024).fill(0x41);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_MCP_BODY_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await live.h.app.request('http://localhost/mcp', { method: 'POST', headers: HEADERS, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: MAX_MCP_BODY_BYTES } });
  });

  it('keeps the 1 MiB limit on JSON bodies of /api', async () => {
    const res = await live.h.call('POST', '/api/collections', { name: 'x', description: 'a'.repeat(MAX_BODY_BYTES) });
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: MAX_BODY_BYTES } });
  });
});
