import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z, ZodRawShape } from 'zod';
import type { RequestContext } from '../domain/context.js';
import type { Permission } from '../domain/keys/principal.js';

/**
 * Tells the client how far a call got, as MCP `notifications/progress`; tools get one only when the client sent a
 * progress token with the call. Never throws: a notification that fails must not fail the work.
 */
export type ReportProgress = (progress: { progress: number; total?: number; message?: string }) => Promise<void>;

export interface ToolDefinition<S extends ZodRawShape> {
  title: string;
  description: string;
  /** Any one of these lets the key call the tool, exactly as the HTTP route of the same verb. */
  permissions: readonly Permission[];
  input: S;
  readOnly?: boolean;
  run: (args: z.infer<z.ZodObject<S>>, ctx: RequestContext, report: ReportProgress | undefined) => Promise<CallToolResult>;
}

export type DefineTool = <S extends ZodRawShape>(name: string, definition: ToolDefinition<S>) => void;

/** A tool's answer: the record as JSON text (for any client) and as structured content (for clients that read it). */
export function jsonResult(value: object, extra: CallToolResult['content'] = []): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }, ...extra], structuredContent: value as Record<string, unknown> };
}
