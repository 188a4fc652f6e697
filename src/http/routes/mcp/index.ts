import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../../domain/errors.js';
import { MAX_UPLOAD_BYTES } from '../../../domain/inputs/input-limits.js';
import { createMcpServer } from '../../../mcp/mcp-server.js';
import { renderError } from '../../errors.js';
import { MAX_BODY_BYTES } from '../../middleware/json-body.js';
import type { Deps } from '../../../domain/context.js';
import type { Api } from '../types.js';

export const MCP_PATH = '/mcp';

/**
 * One MCP message: upload_image carries a file of up to MAX_UPLOAD_BYTES (the limit of POST /api/uploads) as
 * base64, 4 bytes for every 3, and the rest of the message (the envelope, the other arguments) gets what any
 * JSON body gets. Other tools' arguments are small; this is the only route whose JSON may be this large.
 */
export const MAX_MCP_BODY_BYTES = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + MAX_BODY_BYTES;

/**
 * Checked before the transport reads anything, in the shape of every other 413: the transport's own refusal is a
 * JSON-RPC error in the SDK's words. The rest of the body is never read, so the connection is closed.
 */
const mcpBodyLimit = bodyLimit({
  maxSize: MAX_MCP_BODY_BYTES,
  onError: (c) =>
    renderError(
      c,
      new ApiError('PAYLOAD_TOO_LARGE', 'Request body too large', {
        max_bytes: MAX_MCP_BODY_BYTES,
        message: `MCP messages are limited to ${MAX_MCP_BODY_BYTES} bytes (an upload_image file of up to ${MAX_UPLOAD_BYTES} bytes in base64, plus the message around it): send a smaller image`,
      }),
      { Connection: 'close' },
    ),
});

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** The first character of the body that is not JSON whitespace; reads only as far as that, then lets the clone go. */
async function firstCharacter(request: Request): Promise<string | undefined> {
  const reader = request.clone().body?.getReader();
  if (reader === undefined) return undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return undefined;
      const at = value.findIndex((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d);
      if (at !== -1) return String.fromCharCode(value[at] ?? 0);
    }
  } finally {
    // Not awaited: a cancelled clone's promise settles only once the original is cancelled too. Cancelling stops
    // the clone from keeping a copy of the rest of the body.
    reader.cancel().catch(() => undefined);
  }
}

/**
 * JSON-RPC batches are refused: the 2025-06-18 MCP revision dropped them, and one POST carrying 100 tools/call
 * would count once against the key's rate limit, which counts HTTP requests. Reads clones, so the transport still
 * reads and checks the original (its 415 and parse errors stay its own). Only a body that starts as an array is
 * read in full a second time: an upload of tens of megabytes is not parsed twice.
 */
async function refuseBatch(request: Request): Promise<Response | undefined> {
  if ((await firstCharacter(request)) !== '[') return undefined;
  const body = await readRequestBody(request.clone(), MAX_MCP_BODY_BYTES);
  if (body.tooLarge) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(body.text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(message)) return undefined;
  return rpcError(400, -32600, 'Invalid Request: batches are not supported; send one request per POST');
}

/**
 * Whether the message is a tools/call that asks for progress (`_meta.progressToken`) from a client that reads
 * streams. Only small messages are read a second time: an upload's megabytes are not, and report no progress.
 */
async function wantsProgress(request: Request): Promise<boolean> {
  if (!(request.headers.get('accept') ?? '').includes('text/event-stream')) return false;
  const length = Number(request.headers.get('content-length') ?? Number.NaN);
  if (!(length <= MAX_BODY_BYTES)) return false;
  const body = await readRequestBody(request.clone(), MAX_BODY_BYTES);
  if (body.tooLarge) return false;
  try {
    const message = JSON.parse(body.text) as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } } | null;
    return message?.method === 'tools/call' && message.params?._meta?.progressToken !== undefined;
  } catch {
    return false;
  }
}

/**
 * MCP over streamable HTTP, stateless: every POST gets its own server and transport, acting as the request's
 * principal (the Bearer key, checked by the same middleware as /api), so any API process can answer any call
 * and nothing is kept between them. One JSON-RPC message per POST, so every tool call is one request against the
 * key's rate limit. Answers are plain JSON, but for a tool call that asks for progress: that one is answered as an
 * event stream, its progress notifications then its result, the stream closing with the call. There is no
 * server-to-client stream to open with GET, and no session to end with DELETE.
 */
export function registerMcpRoutes(app: Api, deps: Deps, options: { version: string }): void {
  app.post(MCP_PATH, mcpBodyLimit, async (c) => {
    const refused = await refuseBatch(c.req.raw);
    if (refused !== undefined) return refused;
    const server = createMcpServer({ deps, principal: c.get('principal'), version: options.version });
    const streamed = await wantsProgress(c.req.raw);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !streamed,
      maxRequestBodySize: MAX_MCP_BODY_BYTES,
    });
    await server.connect(transport);
    let handedOver = false;
    try {
      const answer = await transport.handleRequest(c.req.raw);
      if (!streamed || answer.body === null || !(answer.headers.get('content-type') ?? '').startsWith('text/event-stream')) return answer;
      // The stream outlives this handler: the server is closed once the transport ends it, after the call's result.
      const closing = new TransformStream<Uint8Array, Uint8Array>({ flush: () => server.close() });
      handedOver = true;
      return new Response(answer.body.pipeThrough(closing), { status: answer.status, headers: answer.headers });
    } finally {
      if (!handedOver) await server.close();
    }
  });
  const notStreamed = () => rpcError(405, -32000, 'This MCP endpoint is stateless: send every message with POST /mcp', { Allow: 'POST' });
  app.get(MCP_PATH, notStreamed);
  app.delete(MCP_PATH, notStreamed);
}
