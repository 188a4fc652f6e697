import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../../src/adapters/providers/openai/openai-provider.js';
import { DEFAULT_RESILIENCE, withResilience } from '../../../src/adapters/providers/resilience/resilient-provider.js';
import { createHarness, expectInvalid, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { openAiSuccess } from '../../../src/adapters/providers/openai/openai.fake.js';
import { useLoopbackFake } from '../../../src/test-support/loopback-server.js';

/*
 * POST /api/generate takes `partial_images`, as /v1 does: the model's partial images reach the generation's events
 * (what the web app shows while OpenAI's GPT image models draw), and are never stored. OpenAI is the real adapter
 * calling the loopback fake, which streams the partials in OpenAI's wire format.
 */
const api = useLoopbackFake((images) => openAiSuccess(images.png.toString('base64')));

let h: Harness;
beforeEach(async () => {
  const openai = withResilience(createOpenAiProvider({ apiKey: 'sk-fake', baseUrl: api.server.origin }), { ...DEFAULT_RESILIENCE, timeoutMs: 30_000 });
  h = await createHarness({ providers: { openai } });
});
afterEach(async () => {
  await h.close();
});

const BODY = { prompt: 'a lighthouse at dusk', model: 'openai/gpt-image-2', width: 1024, height: 1024 };

interface EventMessage {
  event: string;
  data: Record<string, unknown>;
}

/** Reads a generation's event stream to its end, calling `first` once its first message arrived. */
async function eventsOf(id: string, first: () => void): Promise<EventMessage[]> {
  const res = await h.app.request(`/api/generations/${id}/events`, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let told = false;
  for (let chunk = await reader?.read(); chunk !== undefined && !chunk.done; chunk = await reader?.read()) {
    text += decoder.decode(chunk.value, { stream: true });
    if (!told && text.includes('\n\n')) {
      told = true;
      first();
    }
  }
  return text
    .split('\n\n')
    .filter((block) => block.includes('event: '))
    .map((block) => ({
      event: /^event: (.+)$/m.exec(block)?.[1] ?? '',
      data: JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>,
    }));
}

describe('POST /api/generate with partial_images', () => {
  it("sends the model's partial images as the generation's events, asks OpenAI for them, and stores none", async () => {
    // OpenAI answers only once the stream is followed, so every partial is drawn while someone watches.
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const answer = openAiSuccess(api.images.png.toString('base64'));
    api.server.respondWith(async (request, response, server) => {
      await released;
      await answer(request, response, server);
    });
    const accepted = await json<{ id: string; image_id: string }>(
      await h.call('POST', '/api/generate', { ...BODY, partial_images: 2 }, { Prefer: 'respond-async' }),
    );
    const events = await eventsOf(accepted.id, release);
    expect(events.map((message) => message.event).filter((event) => event !== 'generation.started')).toEqual(
      ['generation.queued', 'generation.partial_image', 'generation.partial_image', 'generation.completed'].slice(
        events[0]?.event === 'generation.queued' ? 0 : 1,
      ),
    );
    const partials = events.filter((message) => message.event === 'generation.partial_image');
    expect(partials.map((message) => message.data.index)).toEqual([0, 1]);
    expect(Buffer.from(String(partials[0]?.data.b64_json), 'base64').equals(api.images.png)).toBe(true);
    expect(api.server.requests.map((request) => request.body)).toEqual([expect.objectContaining({ stream: true, partial_images: 2 })]);
    const image = await json<{ parameters: Record<string, unknown> }>(await h.call('GET', `/api/images/${accepted.image_id}`));
    expect(image.parameters).not.toHaveProperty('partial_images');
  });

  it('shows a watcher who arrives after the model drew its partials the latest one, right after the current state', async () => {
    // OpenAI streams both partials at once, then holds its completed event until the test lets it go.
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const answer = openAiSuccess(api.images.png.toString('base64'));
    api.server.respondWith(async (request, response, server) => {
      const end = response.end.bind(response) as (chunk: string) => void;
      response.end = ((chunk: string) => {
        void released.then(() => end(chunk));
        return response;
      }) as typeof response.end;
      await answer(request, response, server);
    });
    const accepted = await json<{ id: string }>(await h.call('POST', '/api/generate', { ...BODY, partial_images: 2 }, { Prefer: 'respond-async' }));
    for (let waited = 0; (await h.deps.events.latestPartial(accepted.id))?.data.index !== 1; waited += 1) {
      if (waited > 500) throw new Error('the second partial never arrived');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const events = await eventsOf(accepted.id, release);
    expect(events.map((message) => message.event)).toEqual(['generation.started', 'generation.partial_image', 'generation.completed']);
    expect(events[1]?.data).toMatchObject({ index: 1 });
    expect(await h.deps.events.latestPartial(accepted.id)).toBeUndefined();
  });

  it('refuses more than 3, naming the field, before anything is stored or sent', async () => {
    await expectInvalid(await h.call('POST', '/api/generate', { ...BODY, partial_images: 4 }), 'Invalid partial_images');
    expect(api.server.requests).toEqual([]);
    expect((await json<{ generations: unknown[] }>(await h.call('GET', '/api/generations'))).generations).toEqual([]);
  });
});
