import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ProgressNotificationSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createKeyAuthenticator } from '../../../src/domain/keys/authenticate.js';
import { createMcpServer } from '../../../src/mcp/mcp-server.js';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { createHarness, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { eventually } from '../../../src/test-support/webhook-receiver.js';
import { heldProvider, type HeldProvider } from '../generations/held-provider.js';
import { createKeyFor } from '../keys/key-helpers.js';

/** Issue 38 over MCP: generate_image's progress, wait: false, and the generation tools. */
const closing = closeAfterEach();
const ARGS = { prompt: 'a lighthouse in a storm', model: 'local/procedural', width: 64, height: 64 };

interface Generation {
  id: string;
  status: string;
  queue_position?: number;
  image_id: string;
  image?: { id: string };
}

async function start(): Promise<{ h: Harness; held: HeldProvider }> {
  const held = heldProvider();
  const h = closing(await createHarness({ providers: { local: held.provider } }));
  return { h, held };
}

/** An SDK client talking to the MCP server in process, as the key's user. */
async function connect(h: Harness, key = TEST_KEY): Promise<Client> {
  const principal = await createKeyAuthenticator(h.deps).authenticate(key);
  if (principal === undefined) throw new Error('the key does not authenticate');
  const server = createMcpServer({ deps: h.deps, principal, version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'imagegate-test', version: '1.0.0' });
  await client.connect(clientSide);
  closing({ close: () => client.close() });
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const structured = <T>(result: CallToolResult) => result.structuredContent as T;
const text = (result: CallToolResult) => JSON.stringify(result.content);

describe('generate_image progress notifications', () => {
  it('reports queued, started, the provider progress and completed, in order, to a client that sent a progress token', async () => {
    const { h, held } = await start();
    const client = await connect(h);
    const seen: Progress[] = [];
    const answer = client.callTool({ name: 'generate_image', arguments: ARGS }, undefined, { onprogress: (progress) => seen.push(progress) });
    await held.started();
    await eventually(async () => (seen.length === 2 ? true : undefined));
    const [generation] = (await h.deps.db.generations.list('admin', {}, { limit: 1, offset: 0 })).items;
    if (generation === undefined) throw new Error('no generation was recorded');
    // What a provider that reports progress makes the worker publish.
    await h.deps.events.publish({ type: 'generation.progress', generation_id: generation.id, data: { progress: 0.5 } });
    await eventually(async () => (seen.length === 3 ? true : undefined));
    held.release();
    const result = (await answer) as CallToolResult;

    expect(result.isError).toBeFalsy();
    expect(structured<{ id: string }>(result).id).toBe(generation.image_id);
    expect(result.content.some((block) => block.type === 'image')).toBe(true);
    expect(seen.map(({ progress, total }) => [progress, total])).toEqual([
      [0, 1],
      [0, 1],
      [0.5, 1],
      [1, 1],
    ]);
    expect(seen.map((progress) => progress.message)).toEqual([`queued: next to start (${generation.id})`, 'started: the model is drawing', '50%', 'completed']);
  });

  it('sends no notification when the client sent no progress token, and answers the image as before', async () => {
    const { h, held } = await start();
    held.release();
    const client = await connect(h);
    let notifications = 0;
    client.setNotificationHandler(ProgressNotificationSchema, () => {
      notifications += 1;
    });
    const result = await call(client, 'generate_image', ARGS);
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({ prompt: ARGS.prompt, width: 64 });
    expect(notifications).toBe(0);
  });

  it("answers the generation's error as the tool error, after the notifications so far", async () => {
    const { h, held } = await start();
    const client = await connect(h);
    const seen: Progress[] = [];
    const answer = client.callTool({ name: 'generate_image', arguments: ARGS }, undefined, { onprogress: (progress) => seen.push(progress) });
    await held.started();
    const [generation] = (await h.deps.db.generations.list('admin', {}, { limit: 1, offset: 0 })).items;
    expect((await call(client, 'cancel_generation', { generation_id: generation?.id })).isError).toBeFalsy();
    const result = (await answer) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/GENERATION_CANCELLED/);
    expect(seen.map((progress) => progress.message)).not.toContain('completed');
  });
});

describe('generate_image with wait: false, get_generation and cancel_generation', () => {
  it('answers the generation at once, which get_generation follows to its image', async () => {
    const { h, held } = await start();
    const client = await connect(h);
    const accepted = structured<Generation>(await call(client, 'generate_image', { ...ARGS, wait: false }));
    expect(accepted).toMatchObject({
      id: expect.stringMatching(/^gen_/),
      status: expect.stringMatching(/^(queued|running)$/),
      image_id: expect.stringMatching(/^img_/),
    });
    await held.started();
    expect(structured<Generation>(await call(client, 'get_generation', { generation_id: accepted.id })).status).toBe('running');
    held.release();
    const done = await eventually(async () => {
      const now = structured<Generation>(await call(client, 'get_generation', { generation_id: accepted.id }));
      return now.status === 'succeeded' ? now : undefined;
    });
    expect(done.image?.id).toBe(accepted.image_id);
  });

  it('cancels a running generation at its provider, and refuses to cancel a finished one with CONFLICT', async () => {
    const { h, held } = await start();
    const client = await connect(h);
    const accepted = structured<Generation>(await call(client, 'generate_image', { ...ARGS, wait: false }));
    await held.started();
    const cancelling = await call(client, 'cancel_generation', { generation_id: accepted.id });
    expect(cancelling.isError).toBeFalsy();
    expect(structured<Generation>(cancelling).id).toBe(accepted.id);
    await eventually(async () =>
      structured<Generation>(await call(client, 'get_generation', { generation_id: accepted.id })).status === 'cancelled' ? true : undefined,
    );
    expect(held.aborted()).toBe(true);

    const again = await call(client, 'cancel_generation', { generation_id: accepted.id });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/CONFLICT/);
    expect(text(again)).toContain('the generation is already cancelled and cannot be cancelled');
  });

  it('finds no generation of another user, to read or to cancel', async () => {
    const { h, held } = await start();
    held.release();
    const mine = structured<Generation>(await call(await connect(h), 'generate_image', { ...ARGS, wait: false }));
    const { key } = await createKeyFor(h, { name: 'other', user_id: 'someone_else', permissions: ['generate', 'read'] });
    const other = await connect(h, key);
    for (const tool of ['get_generation', 'cancel_generation']) {
      const result = await call(other, tool, { generation_id: mine.id });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/NOT_FOUND/);
    }
  });

  it('needs the read permission to get a generation and the generate permission to cancel one', async () => {
    const { h } = await start();
    const { key } = await createKeyFor(h, { name: 'reader', permissions: ['read'] });
    const reader = await connect(h, key);
    const cancel = await call(reader, 'cancel_generation', { generation_id: 'gen_unknown' });
    expect(text(cancel)).toMatch(/FORBIDDEN/);
    const get = await call(reader, 'get_generation', { generation_id: 'gen_unknown' });
    expect(text(get)).toMatch(/NOT_FOUND/);
  });
});
