import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult, type ProgressToken, type ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Deps, RequestContext } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';
import { checkStorable, MAX_BODY_DEPTH } from '../domain/json-shape.js';
import type { Principal } from '../domain/keys/principal.js';
import { validationError } from '../domain/validation-error.js';
import { installValidationMessages } from '../domain/validation-messages.js';
import { registerCollectionTools } from './collection-tools.js';
import type { DefineTool, ReportProgress } from './define-tool.js';
import { registerGenerationTools } from './generation-tools.js';
import { registerImageTools } from './image-tools.js';
import { registerUploadTools } from './upload-tools.js';

/** What every tool acts with: the service's dependencies and the user of the key the MCP client presented. */
export interface McpSession {
  deps: Deps;
  principal: Principal;
  /** The package version the server reports; the runtime's root knows it (Node reads package.json). */
  version: string;
}

/** Sends progress for the call that carried `token`; a failed send (the client gone) is logged, never thrown. */
function progressReporter(token: ProgressToken | undefined, send: (notification: ServerNotification) => Promise<void>, deps: Deps): ReportProgress | undefined {
  if (token === undefined) return undefined;
  return (progress) =>
    send({ method: 'notifications/progress', params: { progressToken: token, ...progress } }).catch((error: unknown) => {
      deps.logger.debug({ err: error instanceof Error ? error.message : String(error) }, 'could not send an MCP progress notification');
    });
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
  const tools = new Map<string, (args: unknown, report: ReportProgress | undefined) => Promise<CallToolResult>>();
  let calls = 0;
  const define: DefineTool = (name, definition) => {
    // Strict, as the routes' bodies: a misspelt argument (negative_promt) is refused, not silently dropped.
    const schema = z.strictObject(definition.input);
    const call = async (args: unknown, report: ReportProgress | undefined): Promise<CallToolResult> => {
      calls += 1;
      const ctx: RequestContext = {
        userId: principal.userId,
        requestId: `mcp-${name}-${calls}`,
        ...(principal.key === undefined
          ? {}
          : { key: { id: principal.key.id, dailyBudgetUsd: principal.key.dailyBudgetUsd, monthlyBudgetUsd: principal.key.monthlyBudgetUsd } }),
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
        return await definition.run(parsed.data, ctx, report);
      } catch (error) {
        if (!(error instanceof ApiError)) deps.logger.error({ err: error, requestId: ctx.requestId }, 'MCP tool failed');
        return toolError(error);
      }
    };
    tools.set(name, call);
    server.registerTool(
      name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: definition.input,
        annotations: { readOnlyHint: definition.readOnly ?? false },
      },
      // Listed with its schema; calls arrive through the tools/call handler below, which checks them first.
      ((args: unknown) => call(args, undefined)) as Parameters<McpServer['registerTool']>[2],
    );
  };
  registerImageTools(define, deps);
  registerUploadTools(define, deps);
  registerCollectionTools(define, deps);
  registerGenerationTools(define, deps);
  // The SDK's own tools/call handler answers bad arguments and unknown tools with untyped text ("MCP error -32602:
  // Input validation error..."); this one answers them as imagegate errors, with what to send instead.
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const call = tools.get(request.params.name);
    if (call !== undefined) return call(request.params.arguments, progressReporter(request.params._meta?.progressToken, extra.sendNotification, deps));
    const name = request.params.name.slice(0, 100);
    return toolError(
      new ApiError('NOT_FOUND', 'Tool not found', {
        tool: name,
        message: `this server has no tool named ${JSON.stringify(name)}; call tools/list for the tools it has`,
      }),
    );
  });
  return server;
}
