import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer } from '../../../mcp/mcp-server.js';
import { MAX_BODY_BYTES } from '../../middleware/json-body.js';
import type { Deps } from '../../../domain/context.js';
import type { Api } from '../types.js';

export const MCP_PATH = '/mcp';

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/**
 * JSON-RPC batches are refused: the 2025-06-18 MCP revision dropped them, and one POST carrying 100 tools/call
 * would count once against the key's rate limit, which counts HTTP requests. Reads a bounded clone, so the
 * transport still reads and checks the original (its 413, 415 and parse errors stay its own).
 */
async function refuseBatch(request: Request): Promise<Response | undefined> {
  const body = await readRequestBody(request.clone(), MAX_BODY_BYTES);
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
 * MCP over streamable HTTP, stateless: every POST gets its own server and transport, acting as the request's
 * principal (the Bearer key, checked by the same middleware as /api), so any API process can answer any call
 * and nothing is kept between them. One JSON-RPC message per POST, so every tool call is one request against the
 * key's rate limit. Answers are plain JSON; there is no server-to-client stream to open with GET, and no session
 * to end with DELETE.
 */
export function registerMcpRoutes(app: Api, deps: Deps, options: { version: string }): void {
  app.post(MCP_PATH, async (c) => {
    const refused = await refuseBatch(c.req.raw);
    if (refused !== undefined) return refused;
    const server = createMcpServer({ deps, principal: c.get('principal'), version: options.version });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  const notStreamed = () => rpcError(405, -32000, 'This MCP endpoint is stateless: send every message with POST /mcp', { Allow: 'POST' });
  app.get(MCP_PATH, notStreamed);
  app.delete(MCP_PATH, notStreamed);
}
