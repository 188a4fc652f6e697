import type { Harness } from '../../../src/test-support/harness.js';

/** One JSON-RPC exchange with POST /mcp on the harness app, as a stateless streamable-HTTP client sends it. */
export interface RpcAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, when it was JSON. */
  body: unknown;
}

export const toolCall = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

export async function postMcp(app: Harness['app'], key: string, message: unknown): Promise<RpcAnswer> {
  const res = await app.request('http://localhost/mcp', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** A tool's answer: the result of a single tools/call, or undefined when the exchange was not one. */
export function toolResult(answer: RpcAnswer): { isError: boolean; payload: Record<string, unknown> } | undefined {
  const result = (
    answer.body as { result?: { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> } } | undefined
  )?.result;
  if (result === undefined) return undefined;
  const text = result.content?.find((block) => block.type === 'text')?.text ?? '{}';
  return { isError: result.isError === true, payload: result.structuredContent ?? (JSON.parse(text) as Record<string, unknown>) };
}
