import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { createHarness, json, TEST_KEY, type Harness, type HarnessOptions } from '../../../src/test-support/harness.js';
import { eventually } from '../../../src/test-support/webhook-receiver.js';
import { heldProvider } from './held-provider.js';

/** Issue 38: every generation is a durable job, followed by its resource, its events, and cancelled by its id. */
const closing = closeAfterEach();
const BODY = { prompt: 'a lighthouse in a storm', model: 'local/procedural', width: 64, height: 64 };

interface Generation {
  id: string;
  status: string;
  queue_position?: number;
  image_id: string;
  image?: { id: string; prompt: string };
  error?: { code: string };
}

const start = async (options: HarnessOptions = {}): Promise<Harness> => closing(await createHarness(options));

function generate(h: Harness, prefer?: string, body: Record<string, unknown> = BODY): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' };
  if (prefer !== undefined) headers.Prefer = prefer;
  return Promise.resolve(h.app.request('/api/generate', { method: 'POST', headers, body: JSON.stringify(body) }));
}

const read = async (h: Harness, id: string) => json<Generation>(await h.call('GET', `/api/generations/${id}`));

describe('POST /api/generate as a durable job', () => {
  it('answers 201 with the image when no preference is sent, as the spec says', async () => {
    const h = await start();
    const res = await generate(h);
    expect(res.status).toBe(201);
    expect(res.headers.get('Preference-Applied')).toBeNull();
    expect(await json(res)).toMatchObject({ prompt: BODY.prompt, model: 'local/procedural' });
  });

  it('answers 202 at once with Prefer: respond-async, and the generation is followed to its image at Location', async () => {
    const held = heldProvider();
    const h = await start({ providers: { local: held.provider } });
    const res = await generate(h, 'respond-async');
    expect(res.status).toBe(202);
    expect(res.headers.get('Preference-Applied')).toBe('respond-async');
    const accepted = await json<Generation>(res);
    expect(res.headers.get('Location')).toBe(`/api/generations/${accepted.id}`);
    expect(accepted).toMatchObject({ status: expect.stringMatching(/^(queued|running)$/), image_id: expect.stringMatching(/^img_/) });
    await held.started();
    expect((await read(h, accepted.id)).status).toBe('running');
    held.release();
    const done = await eventually(async () => {
      const now = await read(h, accepted.id);
      return now.status === 'succeeded' ? now : undefined;
    });
    expect(done.image).toMatchObject({ id: accepted.image_id, prompt: BODY.prompt });
    expect((await h.call('GET', `/api/images/${accepted.image_id}`)).status).toBe(200);
  });

  it('waits up to wait=N seconds: 202 when the image is not ready by then, 201 when it is', async () => {
    const held = heldProvider();
    const h = await start({ providers: { local: held.provider } });
    const slow = await generate(h, 'wait=1');
    expect(slow.status).toBe(202);
    expect(slow.headers.get('Preference-Applied')).toBe('wait=1');
    held.release();
    const fast = await generate(h, 'wait=30');
    expect(fast.status).toBe(201);
    expect(fast.headers.get('Preference-Applied')).toBe('wait=30');
  });

  it("lists the caller's generations newest first, by status, and hides another user's as not found", async () => {
    const h = await start();
    const first = await json<{ id: string }>(await generate(h));
    h.clock.advance(1_000);
    await generate(h);
    const list = await json<{ generations: Generation[]; pagination: { total: number } }>(await h.call('GET', '/api/generations?status=succeeded&limit=1'));
    expect(list.pagination.total).toBe(2);
    expect(list.generations).toHaveLength(1);
    expect(list.generations[0]?.image?.id).not.toBe(first.id);
    const other = await h.call('POST', '/api/keys', { name: 'bob', permissions: ['read'], user_id: 'bob' });
    const bobKey = (await json<{ key: string }>(other)).key;
    const mine = list.generations[0]?.id ?? '';
    const asBob = await h.app.request(`/api/generations/${mine}`, { headers: { Authorization: `Bearer ${bobKey}` } });
    expect(asBob.status).toBe(404);
    expect(await json(asBob)).toMatchObject({ code: 'NOT_FOUND', details: { generation_id: mine } });
  });
});

describe('cancelling a generation', () => {
  it('cancels a queued one at once: never sent to the provider, never charged', async () => {
    const held = heldProvider('replicate');
    // No generation jobs run: what is accepted stays queued.
    const h = await start({ providers: { replicate: held.provider }, workers: false, generationJobs: false });
    const res = await generate(h, 'respond-async', { ...BODY, model: 'replicate/black-forest-labs/flux-schnell', width: 256, height: 256 });
    const queued = await json<Generation>(res);
    expect(queued).toMatchObject({ status: 'queued', queue_position: 0 });
    const cancelled = await h.call('POST', `/api/generations/${queued.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(await json(cancelled)).toMatchObject({ status: 'cancelled', error: { code: 'GENERATION_CANCELLED' } });
    expect(held.calls()).toBe(0);
    const charges = await json<{ charges: unknown[] }>(await h.call('GET', '/api/analytics/charges'));
    expect(charges.charges).toEqual([]);
    expect((await h.call('POST', `/api/generations/${queued.id}/cancel`)).status).toBe(409);
  });

  it('stops a running one at its provider, and a caller who waited gets 409 GENERATION_CANCELLED', async () => {
    const held = heldProvider();
    const h = await start({ providers: { local: held.provider } });
    const waiting = generate(h);
    await held.started();
    const running = (await json<{ generations: Generation[] }>(await h.call('GET', '/api/generations?status=running'))).generations[0];
    expect(running).toBeDefined();
    const cancel = await h.call('POST', `/api/generations/${running?.id ?? ''}/cancel`);
    expect(cancel.status).toBe(200);
    const answer = await waiting;
    expect(answer.status).toBe(409);
    expect(await json(answer)).toMatchObject({ code: 'GENERATION_CANCELLED' });
    expect(held.aborted()).toBe(true);
    expect((await read(h, running?.id ?? '')).status).toBe('cancelled');
    expect((await json<{ images: unknown[] }>(await h.call('GET', '/api/images'))).images).toEqual([]);
  });
});

describe('GET /api/generations/{id}/events', () => {
  it('streams the current state first, then each change, and ends with the completed event carrying the image', async () => {
    const held = heldProvider();
    const h = await start({ providers: { local: held.provider } });
    const accepted = await json<Generation>(await generate(h, 'respond-async'));
    await held.started();
    const stream = await h.app.request(`/api/generations/${accepted.id}/events`, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
    held.release();
    const text = await stream.text();
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(events).toEqual(['generation.started', 'generation.completed']);
    const completed = text.split('event: generation.completed')[1] ?? '';
    expect(completed).toContain(`"image_id":"${accepted.image_id}"`);
    expect(completed).toContain('"status":"succeeded"');

    // Connecting after the end gets the final state alone.
    const late = await (await h.app.request(`/api/generations/${accepted.id}/events`, { headers: { Authorization: `Bearer ${TEST_KEY}` } })).text();
    expect([...late.matchAll(/^event: (.+)$/gm)].map((match) => match[1])).toEqual(['generation.completed']);
  });
});
