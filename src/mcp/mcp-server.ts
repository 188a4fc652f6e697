import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodRawShape } from 'zod';
import type { Deps, RequestContext } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';
import { checkStorable } from '../domain/json-shape.js';
import type { Permission, Principal } from '../domain/keys/principal.js';
import { validationError } from '../http/errors.js';
import { MAX_BODY_DEPTH } from '../http/middleware/json-body.js';
import { installValidationMessages } from '../http/validation-messages.js';
import { registerCollectionTools } from './collection-tools.js';
import { registerImageTools } from './image-tools.js';
import { registerUploadTools } from './upload-tools.js';

/** What every tool acts with: the service's dependencies and the user of the key the MCP client presented. */
export interface McpSession {
  deps: Deps;
  principal: Principal;
  /** The package version the server reports; the runtime's root knows it (Node reads package.json). */
  version: string;
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
 * the domain verb its HTTP route calls, under the same permission and the same input rules as its route: text a
 * database cannot store, arguments of the wrong type or size and unknown arguments are typed tool errors
 * (INVALID_PARAMETER, INVALID_MODEL...), checked before any provider is called.
 */
export function createMcpServer({ deps, principal, version }: McpSession): McpServer {
  // The same wording of zod's issues as /api ("width must be an integer (got "big")"); stdio has no app to set it.
  installValidationMessages();
  const server = new McpServer({ name: 'imagegate', version });
  const tools = new Map<string, (args: unknown) => Promise<CallToolResult>>();
  let calls = 0;
  const define: DefineTool = (name, definition) => {
    // Strict, as the routes' bodies: a misspelt argument (negative_promt) is refused, not silently dropped.
    const schema = z.strictObject(definition.input);
    const call = async (args: unknown): Promise<CallToolResult> => {
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
        const given = args ?? {};
        // The rule of /api's JSON bodies (NUL, lone surrogates, depth), from the same function.
        checkStorable(given, { maxDepth: MAX_BODY_DEPTH }, 'the arguments');
        const parsed = schema.safeParse(given);
        if (!parsed.success) throw validationError({ error: parsed.error, target: 'the arguments', data: given });
        return await definition.run(parsed.data, ctx);
      } catch (error) {
        if (!(error instanceof ApiError)) deps.logger.error({ err: error, requestId: ctx.requestId }, 'MCP tool failed');
        return toolError(error);
      }
    };
    tools.set(name, call);
    server.registerTool(
      name,
      { title: definition.title, description: definition.description, inputSchema: definition.input, annotations: { readOnlyHint: definition.readOnly ?? false } },
      // Listed with its schema; calls arrive through the tools/call handler below, which checks them first.
      ((args: unknown) => call(args)) as Parameters<McpServer['registerTool']>[2],
    );
  };
  registerImageTools(define, deps);
  registerUploadTools(define, deps);
  registerCollectionTools(define, deps);
  // The SDK's own tools/call handler answers bad arguments and unknown tools with untyped text ("MCP error -32602:
  // Input validation error..."); this one answers them as imagegate errors, with what to send instead.
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const call = tools.get(request.params.name);
    if (call !== undefined) return call(request.params.arguments);
    const name = request.params.name.slice(0, 100);
    return toolError(new ApiError('NOT_FOUND', 'Tool not found', { tool: name, message: `this server has no tool named ${JSON.stringify(name)}; call tools/list for the tools it has` }));
  });
  return server;
}
