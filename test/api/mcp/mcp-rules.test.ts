import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessWithStandIn } from '../../../src/test-support/stand-in-harness.js';
import type { StandIn } from '../../../src/test-support/stand-in-provider.js';
import { TEST_KEY, json, type Harness } from '../../../src/test-support/harness.js';
import { createKeyFor } from '../keys/key-helpers.js';
import { postMcp, toolCall, toolResult } from './rpc.js';

/** MCP is held to the rules of /api: one request per call against the rate limit, the same text rules, typed errors. */
const PAID = 'replicate/black-forest-labs/flux-schnell';
let h: Harness;
let standIn: StandIn;
beforeEach(async () => ({ h, standIn } = await harnessWithStandIn()));
afterEach(() => h.close());

const generate = (i: number) => ({ prompt: `a lighthouse, view ${i}`, model: PAID, width: 256, height: 256 });
const total = async (path: string) => (await json<{ pagination: { total: number } }>(await h.call('GET', path))).pagination.total;

describe('MCP JSON-RPC batches', () => {
  it('refuses a batch with -32600, saying to send one request per POST, and makes nothing', async () => {
    const answer = await postMcp(h.app, TEST_KEY, [toolCall(1, 'generate_image', generate(1)), toolCall(2, 'generate_image', generate(2))]);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('send one request per POST') } });
    expect(standIn.calls()).toBe(0);
    expect(await total('/api/images')).toBe(0);
  });
});

describe('MCP tool calls and the rate limit', () => {
  it('counts every tools/call as one request: the limit stops the call after it, which generates nothing', async () => {
    const { key } = await createKeyFor(h, { name: 'mcp', permissions: ['generate', 'read'], plan: 'enterprise', rate_limit: 3 });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await postMcp(h.app, key, toolCall(i + 1, 'generate_image', generate(i)));
      expect(toolResult(answer)?.isError).toBe(false);
      remaining.push(answer.headers.get('X-RateLimit-Remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await postMcp(h.app, key, toolCall(4, 'generate_image', generate(4)));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).not.toBeNull();
    expect(standIn.calls()).toBe(3);
    expect(await total('/api/images')).toBe(3);
  });
});

const NUL = 'a light\u0000house';
const LONE = 'a lighthouse \ud800';

describe('MCP tool arguments pass the text rules of /api before anything is paid for or stored', () => {
  it.each<[string, string, Record<string, unknown>, string]>([
    ['a NUL in the prompt', 'generate_image', { ...generate(0), prompt: NUL }, 'prompt'],
    ['a lone surrogate in the prompt', 'generate_image', { ...generate(0), prompt: LONE }, 'prompt'],
    ['a NUL in negative_prompt', 'generate_image', { ...generate(0), negative_prompt: NUL }, 'negative_prompt'],
    ['a NUL in the model', 'generate_image', { ...generate(0), model: `${PAID}\u0000` }, 'model'],
    ['a NUL in a collection name', 'create_collection', { name: NUL }, 'name'],
    ['a lone surrogate in a collection description', 'create_collection', { name: 'Moodboard', description: LONE }, 'description'],
    ['a NUL in a batch prompt', 'create_batch', { prompts: ['a red fox', NUL], model: PAID, width: 256, height: 256 }, 'prompts'],
    ['a NUL in an image id', 'get_image', { id: 'img_\u0000' }, 'id'],
    ['a NUL in an image id to delete', 'delete_image', { id: 'img_\u0000' }, 'id'],
    ['a NUL in a batch id', 'get_batch', { id: 'batch_\u0000' }, 'id'],
    ['a NUL in a collection id', 'add_to_collection', { collection_id: 'coll_\u0000', image_id: 'img_1' }, 'collection_id'],
    ['a NUL in a search', 'list_images', { query: NUL }, 'query'],
    ['a NUL in a model filter', 'list_images', { model: 'local/\u0000' }, 'model'],
    [
      'a cursor that decodes to a NUL id',
      'list_images',
      { cursor: btoa(JSON.stringify(['2026-11-20T10:00:00.000Z', 'img_\u0000'])).replace(/=+$/, '') },
      'cursor',
    ],
    ['a NUL in a date', 'get_costs', { from: '2026-11-01\u0000' }, 'from'],
  ])('refuses %s with INVALID_PARAMETER naming the field, calling no provider and storing nothing', async (_what, tool, args, field) => {
    const answer = await postMcp(h.app, TEST_KEY, toolCall(1, tool, args));
    expect(answer.status).toBe(200);
    const result = toolResult(answer);
    expect(result?.isError).toBe(true);
    expect(result?.payload).toMatchObject({ code: 'INVALID_PARAMETER', details: { field } });
    expect(standIn.calls()).toBe(0);
    expect(await total('/api/images')).toBe(0);
    expect(await total('/api/collections')).toBe(0);
  });
});

describe('every tool error is a typed imagegate error with words', () => {
  it.each<[string, string, unknown, string, string]>([
    ['a width of the wrong type', 'generate_image', { ...generate(0), width: 'big' }, 'INVALID_PARAMETER', 'width must be a number'],
    [
      'a prompt over 4,000 characters',
      'generate_image',
      { ...generate(0), prompt: 'x'.repeat(5000) },
      'INVALID_PARAMETER',
      'prompt must be at most 4000 characters',
    ],
    ['a missing prompt', 'generate_image', { model: PAID }, 'INVALID_PARAMETER', 'prompt is required'],
    ['a model of the wrong type', 'generate_image', { ...generate(0), model: 42 }, 'INVALID_MODEL', 'model must be a string'],
    [
      'an argument the tool does not take',
      'generate_image',
      { ...generate(0), negative_promt: 'fog' },
      'INVALID_PARAMETER',
      'negative_promt is not a parameter',
    ],
    ['a limit out of range', 'list_images', { limit: 0 }, 'INVALID_PARAMETER', 'limit must be at least 1'],
    ['a name of 10,000 characters', 'create_collection', { name: 'n'.repeat(10_000) }, 'INVALID_PARAMETER', 'name must be at most 100 characters'],
    [
      'arguments nested 100 levels deep',
      'create_collection',
      { name: 'Moodboard', description: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) as unknown },
      'INVALID_PARAMETER',
      'nested more than',
    ],
    ['a tool that does not exist', 'make_video', {}, 'NOT_FOUND', 'tools/list'],
  ])('answers %s with %s, never INTERNAL_ERROR', async (_what, tool, args, code, words) => {
    const answer = await postMcp(h.app, TEST_KEY, toolCall(1, tool, args));
    const result = toolResult(answer);
    expect(result?.isError).toBe(true);
    expect(result?.payload).toMatchObject({ code });
    expect(JSON.stringify(result?.payload)).toContain(words);
    expect(standIn.calls()).toBe(0);
    expect(await total('/api/images')).toBe(0);
  });
});
