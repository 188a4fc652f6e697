/**
 * Property-based fuzzing of POST /mcp, the sibling of openapi-fuzz.test.ts, on the same worlds and odd values.
 * Every run builds a fresh app with its fixtures, then sends 1..N tools/call messages: valid arguments, one
 * argument made unstorable (NUL, lone surrogates), odd values (wrong types, huge strings, deep nesting), unknown
 * arguments and tools, and JSON-RPC batches. For every answer:
 *   - no 5xx and never INTERNAL_ERROR;
 *   - a batch is refused (400, -32600) and stores nothing;
 *   - a refused call (HTTP error, JSON-RPC error or tool error) stores nothing;
 *   - a call that must be refused (unstorable text, unknown argument or tool) is;
 *   - an image or collection a call made reads back through /api as the tool answered it.
 *
 *   FUZZ_SEED=<n>  seed (default 20261124)     FUZZ_RUNS=<n>  property runs (default 100)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abbreviate, jsonText, Obj, placeholder, type J, type Resolve } from './json-text.js';
import { messageArb, TOOL_NAMES, type McpCall, type McpMessage } from './mcp-arbitraries.js';
import { createWorld, describeChanges, type World } from './world.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const MAX_MESSAGES_PER_RUN = 6;
const READ_BACK: Record<string, string> = { generate_image: '/api/images/', create_collection: '/api/collections/' };

const envelope = (call: McpCall, id: number): Obj =>
  new Obj([
    ['jsonrpc', '2.0'],
    ['id', id],
    ['method', 'tools/call'],
    [
      'params',
      new Obj([
        ['name', call.tool],
        ['arguments', call.args],
      ]),
    ],
  ]);
const messageJson = (message: McpMessage): J => (message.kind === 'single' ? envelope(message.call, 1) : message.calls.map((call, i) => envelope(call, i + 1)));

function describeMessage(message: McpMessage, resolve: Resolve = placeholder): string {
  const calls = message.kind === 'single' ? [message.call] : message.calls;
  const notes = calls.flatMap((call) => call.notes);
  return `${message.kind === 'batch' ? `batch of ${calls.length}: ` : ''}${abbreviate(jsonText(messageJson(message), resolve, true), 600)}${notes.length > 0 ? `\n  mutation: ${notes.join('; ')}` : ''}`;
}

interface Answer {
  status: number;
  text: string;
  body: unknown;
}

async function post(world: World, message: McpMessage): Promise<Answer> {
  const text = jsonText(messageJson(message), (name) => world.fixtures[name]);
  const res = await world.app.request('http://localhost/mcp', {
    method: 'POST',
    headers: { Authorization: `Bearer ${world.fixtures.adminKey}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: new TextEncoder().encode(text),
  });
  const answer = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(answer);
  } catch {
    body = undefined;
  }
  return { status: res.status, text: answer, body };
}

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

/** Every invariant of one exchange; `changes` is what the world stored meanwhile. */
async function violations(world: World, message: McpMessage, answer: Answer, changes: string[]): Promise<string[]> {
  const found: string[] = [];
  if (answer.status >= 500) found.push(`server error: answered ${answer.status}`);
  if (answer.text.includes('INTERNAL_ERROR')) found.push('INTERNAL_ERROR in the answer');
  const rpc = answer.body as { error?: { code?: unknown }; result?: ToolAnswer } | undefined;
  if (message.kind === 'batch') {
    if (answer.status !== 400 || rpc?.error?.code !== -32600) found.push(`batch not refused with 400 -32600 (got ${answer.status})`);
    if (changes.length > 0) found.push(`refused batch stored data: ${changes.join('; ')}`);
    return found;
  }
  const result = rpc?.result;
  const refused = answer.status >= 400 || result === undefined || result.isError === true;
  if (refused && changes.length > 0) found.push(`refused call stored data: ${changes.join('; ')}`);
  if (!refused && message.call.refuse.length > 0) found.push(`call accepted although: ${message.call.refuse.join('; ')}`);
  const base = READ_BACK[message.call.tool];
  const made = result?.structuredContent;
  if (!refused && base !== undefined && typeof made?.id === 'string') {
    const res = await world.app.request(`http://localhost${base}${encodeURIComponent(made.id)}`, {
      headers: { Authorization: `Bearer ${world.fixtures.adminKey}` },
    });
    const stored = (await res.json()) as Record<string, unknown>;
    // Thumbnails are made after the answer, by a job of their own: the record may have them by now.
    const differing = Object.keys(made).filter((key) => key !== 'thumbnails' && key in stored && JSON.stringify(made[key]) !== JSON.stringify(stored[key]));
    if (res.status !== 200 || differing.length > 0) found.push(`answer differs from what was stored: ${res.status} ${differing.join(', ')}`);
  }
  return found;
}

class Run {
  failedAt: number | undefined;
  constructor(readonly messages: readonly McpMessage[]) {}
  [fc.toStringMethod](): string {
    const sent = this.failedAt === undefined ? this.messages : this.messages.slice(0, this.failedAt + 1);
    return `\n  a fresh app and its fixtures, then\n  ${sent.map((m, i) => `#${i + 1} ${describeMessage(m).replaceAll('\n', '\n     ')}`).join('\n  ')}\n`;
  }
}

const stats = { messages: 0, batches: 0, toolErrors: 0, byTool: new Map<string, number>() };

async function execute(run: Run): Promise<void> {
  const world = await createWorld('api_key');
  try {
    let before = await world.snapshot();
    for (const [index, message] of run.messages.entries()) {
      stats.messages += 1;
      if (message.kind === 'batch') stats.batches += 1;
      else stats.byTool.set(message.call.tool, (stats.byTool.get(message.call.tool) ?? 0) + 1);
      const answer = await post(world, message);
      if (answer.text.includes('"isError":true')) stats.toolErrors += 1;
      const after = await world.snapshot();
      const found = await violations(world, message, answer, describeChanges(before, after));
      before = after;
      if (found.length > 0) {
        run.failedAt = index;
        throw new Error(
          `${found.join('\n')}\nmessage: ${describeMessage(message, (name) => world.fixtures[name])}\nanswer: ${answer.status} ${abbreviate(answer.text, 600)}`,
        );
      }
    }
  } finally {
    await world.close();
  }
}

describe('MCP fuzz', () => {
  it(
    'answers every generated tool call and batch without a 5xx or INTERNAL_ERROR, storing nothing when it refuses',
    async () => {
      console.log(`mcp fuzz: seed ${SEED}, ${RUNS} runs of up to ${MAX_MESSAGES_PER_RUN} messages (FUZZ_SEED / FUZZ_RUNS to change)`);
      const runArb = fc.array(messageArb, { minLength: 1, maxLength: MAX_MESSAGES_PER_RUN }).map((messages) => new Run(messages));
      await fc.assert(fc.asyncProperty(runArb, execute), { seed: SEED, numRuns: RUNS, timeout: 30_000 });
      console.log(
        `mcp fuzz: ${stats.messages} messages (${stats.batches} batches, ${stats.toolErrors} tool errors); ${[...stats.byTool].map(([tool, n]) => `${tool} ${n}`).join(', ')}`,
      );
      // Every tool was called at least once (the default run count is large enough for that).
      if (RUNS >= 100) expect(TOOL_NAMES.filter((tool) => !stats.byTool.has(tool))).toEqual([]);
    },
    30 * 60_000,
  );
});
