import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer } from '../../../mcp/mcp-server.js';
import { MAX_BODY_BYTES } from '../../middleware/json-body.js';
import type { RegisterRoutes } from '../types.js';

export const MCP_PATH = '/mcp';

/**
 * MCP over streamable HTTP, stateless: every POST gets its own server and transport, acting as the request's
 * principal (the Bearer key, checked by the same middleware as /api), so any API process can answer any call
 * and nothing is kept between them. Answers are plain JSON; there is no server-to-client stream to open with
 * GET, and no session to end with DELETE.
 */
export const registerMcpRoutes: RegisterRoutes = (app, deps) => {
  app.post(MCP_PATH, async (c) => {
    const server = createMcpServer({ deps, principal: c.get('principal') });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  const notStreamed = () =>
    new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'This MCP endpoint is stateless: send every message with POST /mcp' }, id: null }), {
      status: 405,
      headers: { Allow: 'POST', 'Content-Type': 'application/json' },
    });
  app.get(MCP_PATH, notStreamed);
  app.delete(MCP_PATH, notStreamed);
};
