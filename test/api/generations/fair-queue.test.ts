import { describe, expect, it } from 'vitest';
import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import { startBatchWorkers } from '../../../src/domain/batches/batch-workers.js';
import { runGeneration } from '../../../src/domain/generations/run-generation.js';
import { processJobs } from '../../../src/domain/jobs.js';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { createHarness, json, testCpuPool, type Harness } from '../../../src/test-support/harness.js';
import { eventually } from '../../../src/test-support/webhook-receiver.js';
import { as, createKeyFor } from '../keys/key-helpers.js';

/** Issue 38: one key's backlog cannot starve another key's generations; queue_position is what a generation waits behind. */
const closing = closeAfterEach();

interface Generation {
  id: string;
  status: string;
  queue_position?: number;
}

/** The offline renderer, recording each call's prompt as it starts; held call by call until `step` (or `open`) lets them answer. */
function steppedProvider() {
  const real = createProceduralProvider(testCpuPool());
  const started: string[] = [];
  const held: (() => void)[] = [];
  let opened = false;
  const provider: ImageProvider = {
    id: 'local',
    async generate(request, options) {
      started.push(request.prompt.replace(/^job /, ''));
      if (!opened) await new Promise<void>((resolve) => held.push(resolve));
      return real.generate(request, options);
    },
  };
  return {
    provider,
    started,
    /** Lets the held call answer, and waits until the next one has started. */
    async step() {
      const count = started.length;
      held.shift()?.();
      await eventually(async () => (started.length > count ? true : undefined));
    },
    open() {
      opened = true;
      held.splice(0).forEach((resolve) => resolve());
    },
  };
}

/** A harness whose generations run one at a time, on the stepped provider, once `run` is called: the order is the queue's. */
async function setUp() {
  const stepped = steppedProvider();
  const h = closing(await createHarness({ providers: { local: stepped.provider }, workers: false, generationJobs: false }));
  const run = () =>
    processJobs(h.deps.queue, 'generation', { concurrency: 1, logger: h.deps.logger }, ({ generationId }, job) => runGeneration(h.deps, generationId, job));
  const key = async (name: string) => (await createKeyFor(h, { name, permissions: ['generate', 'read'] })).key;
  return { h, stepped, run, key };
}

/** Queues one generation as `key`, answered at once (202), a millisecond after the one before: the queue breaks ties by age. */
async function accept(h: Harness, key: string, prompt: string): Promise<Generation> {
  h.clock.advance(1);
  const res = await h.app.request('/api/generate', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Prefer: 'respond-async' },
    // Prompts are at least 3 characters: `job a0` is recorded as `a0`.
    body: JSON.stringify({ prompt: `job ${prompt}`, model: 'local/procedural', width: 64, height: 64 }),
  });
  expect(res.status).toBe(202);
  return json<Generation>(res);
}

const position = async (h: Harness, key: string, id: string) => (await json<Generation>(await as(h, key, 'GET', `/api/generations/${id}`))).queue_position;

describe('the generation queue serves keys in turn', () => {
  it("puts one generation of a key behind at most one of another key's twenty, and starts it before that key's third", async () => {
    const { h, stepped, run, key } = await setUp();
    const [a, b] = [await key('a'), await key('b')];
    run();
    await accept(h, a, 'a0');
    await eventually(async () => (stepped.started.length === 1 ? true : undefined));
    for (let n = 1; n < 20; n += 1) await accept(h, a, `a${n}`);
    const lone = await accept(h, b, 'b0');
    // a0 runs (round 0): b0 lands in that round, ahead of a1 (round 1).
    expect(lone.queue_position).toBeLessThanOrEqual(1);
    expect(lone.queue_position).toBe(0);
    stepped.open();
    await h.drainJobs();
    expect(stepped.started.indexOf('b0')).toBeLessThan(stepped.started.indexOf('a2'));
    expect(stepped.started.slice(0, 4)).toEqual(['a0', 'b0', 'a1', 'a2']);
    expect(stepped.started).toHaveLength(21);
  });

  it('serves three keys round robin, one generation each per round, whatever their backlogs and the order they queued in', async () => {
    const { h, stepped, run, key } = await setUp();
    const [a, b, c] = [await key('a'), await key('b'), await key('c')];
    const accepted: Record<string, Generation> = {};
    for (const [name, k, count] of [
      ['a', a, 4],
      ['b', b, 3],
      ['c', c, 2],
    ] as const) {
      for (let n = 0; n < count; n += 1) accepted[`${name}${n}`] = await accept(h, k, `${name}${n}`);
    }
    // As accepted (nothing runs yet): each saw the queue as it stood, later keys slotting into earlier rounds.
    expect(Object.fromEntries(Object.entries(accepted).map(([name, g]) => [name, g.queue_position]))).toEqual({
      a0: 0,
      a1: 1,
      a2: 2,
      a3: 3,
      b0: 1,
      b1: 3,
      b2: 5,
      c0: 2,
      c1: 5,
    });
    expect(await position(h, c, accepted.c1?.id ?? '')).toBe(5);
    expect(await position(h, a, accepted.a3?.id ?? '')).toBe(8);
    stepped.open();
    run();
    await h.drainJobs();
    expect(stepped.started).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it("takes batches' prompts by turns between keys too: a key's small batch does not wait for another's big one", async () => {
    const stepped = steppedProvider();
    // One prompt at the provider at a time (BATCH_CONCURRENCY 1); the workers start once both batches are queued.
    const h = closing(await createHarness({ providers: { local: stepped.provider }, workers: false, generationJobs: false, batch: { concurrency: 1 } }));
    const keyOf = async (name: string) => (await createKeyFor(h, { name, permissions: ['generate', 'read'] })).key;
    const [a, b] = [await keyOf('a'), await keyOf('b')];
    const small = { model: 'local/procedural', width: 64, height: 64 };
    expect((await as(h, a, 'POST', '/api/batch/create', { name: 'big', prompts: ['job a0', 'job a1', 'job a2', 'job a3'], ...small })).status).toBe(201);
    h.clock.advance(1);
    expect((await as(h, b, 'POST', '/api/batch/create', { name: 'small', prompts: ['job b0', 'job b1'], ...small })).status).toBe(201);
    stepped.open();
    const workers = await startBatchWorkers(h.deps);
    await h.drainJobs();
    await workers.stop();
    // Round by round; within a round two prompts may reach the provider in either order (two jobs run at once per slot).
    const rounds = [stepped.started.slice(0, 2), stepped.started.slice(2, 4), stepped.started.slice(4)].map((round) => [...round].sort());
    expect(rounds).toEqual([
      ['a0', 'b0'],
      ['a1', 'b1'],
      ['a2', 'a3'],
    ]);
  });

  it("counts a generation's queue_position down as the generations ahead of it start, one at a time", async () => {
    const { h, stepped, run, key } = await setUp();
    const [a, b] = [await key('a'), await key('b')];
    run();
    const a0 = await accept(h, a, 'a0');
    await eventually(async () => (stepped.started.length === 1 ? true : undefined));
    expect(a0.queue_position).toBe(0);
    const rest: Generation[] = [];
    for (let n = 1; n < 5; n += 1) rest.push(await accept(h, a, `a${n}`));
    const b0 = await accept(h, b, 'b0');
    const b1 = await accept(h, b, 'b1');
    const last = rest.at(-1)?.id ?? '';
    // Queued: b0 (round 0), a1, b1 (round 1), a2, a3, a4.
    const seen = { a4: [await position(h, a, last)], b1: [await position(h, b, b1.id)] };
    for (let step = 0; step < 5; step += 1) {
      await stepped.step();
      seen.a4.push(await position(h, a, last));
      seen.b1.push(await position(h, b, b1.id));
    }
    // Round by round; within a round two prompts may reach the provider in either order (two jobs run at once per slot).
    const rounds = [stepped.started.slice(0, 2), stepped.started.slice(2, 4), stepped.started.slice(4)].map((round) => [...round].sort());
    expect(rounds).toEqual([
      ['a0', 'b0'],
      ['a1', 'b1'],
      ['a2', 'a3'],
    ]);
    expect(b0.queue_position).toBe(0);
    // Running (or done) it has no position any more.
    expect(seen).toEqual({ a4: [5, 4, 3, 2, 1, 0], b1: [2, 1, 0, undefined, undefined, undefined] });
    stepped.open();
    await h.drainJobs();
  });
});
