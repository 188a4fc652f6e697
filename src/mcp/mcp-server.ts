import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShape, z } from 'zod';
import type { Deps, RequestContext } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';
import type { Permission, Principal } from '../domain/keys/principal.js';
import { VERSION } from '../version.js';
import { registerCollectionTools } from './collection-tools.js';
import { registerImageTools } from './image-tools.js';

/** What every tool acts with: the service's dependencies and the user of the key the MCP client presented. */
export interface McpSession {
  deps: Deps;
  principal: Principal;
}

export interface ToolDefinition<S extends ZodRawShape> {
  title: string;
  description: string;
  /** Any one of these lets the key call the tool, exactly as the HTTP route of the same verb. */
  permissions: readonly Permission[];
  input: S;
  readOnly?: boolean;
  run: (args: z.infer<z.ZodObject<S>>, ctx: RequestContext) => Promise<CallToolResult>;
}

export type DefineTool = <S extends ZodRawShape>(name: string, definition: ToolDefinition<S>) => void;

/** A tool's answer: the record as JSON text (for any client) and as structured content (for clients that read it). */
export function jsonResult(value: object, extra: CallToolResult['content'] = []): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }, ...extra], structuredContent: value as Record<string, unknown> };
}

/** An imagegate error as a tool error the agent can act on: what went wrong and what to send instead. */
function toolError(error: unknown): CallToolResult {
  if (error instanceof ApiError) return { isError: true, content: [{ type: 'text', text: JSON.stringify(error.toBody()) }] };
  // Never internals: the server's log has the detail.
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: 'Internal server error', code: 'INTERNAL_ERROR' }) }] };
}

/**
 * One MCP server per session (stdio) or per request (stateless HTTP), acting as one principal. Every tool calls
 * the domain verb its HTTP route calls, under the same permission; a missing permission is a tool error.
 */
export function createMcpServer({ deps, principal }: McpSession): McpServer {
  const server = new McpServer({ name: 'imagegate', version: VERSION });
  let calls = 0;
  const define: DefineTool = (name, definition) => {
    server.registerTool(
      name,
      { title: definition.title, description: definition.description, inputSchema: definition.input, annotations: { readOnlyHint: definition.readOnly ?? false } },
      // The SDK's callback type is generic over the schema; ours is the same shape, checked where each tool is defined.
      (async (args: z.infer<z.ZodObject<typeof definition.input>>) => {
        calls += 1;
        const ctx: RequestContext = {
          userId: principal.userId,
          requestId: `mcp-${name}-${calls}`,
          ...(principal.key === undefined ? {} : { key: { id: principal.key.id, dailyBudgetUsd: principal.key.dailyBudgetUsd, monthlyBudgetUsd: principal.key.monthlyBudgetUsd } }),
        };
        try {
          if (!definition.permissions.some((permission) => principal.permissions.has(permission))) {
            throw new ApiError('FORBIDDEN', 'Insufficient permissions', {
              required: definition.permissions.join(' or '),
              granted: [...principal.permissions],
              message: `this API key lacks the ${definition.permissions.join(' or ')} permission that ${name} needs; use a key that has it`,
            });
          }
          return await definition.run(args, ctx);
        } catch (error) {
          if (!(error instanceof ApiError)) deps.logger.error({ err: error, requestId: ctx.requestId }, 'MCP tool failed');
          return toolError(error);
        }
      }) as Parameters<McpServer['registerTool']>[2],
    );
  };
  registerImageTools(define, deps);
  registerCollectionTools(define, deps);
  return server;
}
