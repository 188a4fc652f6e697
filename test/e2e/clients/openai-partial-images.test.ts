import OpenAI from 'openai';
import type { ImageEditStreamEvent, ImageGenCompletedEvent, ImageGenStreamEvent } from 'openai/resources/images';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../../src/adapters/providers/openai/openai-provider.js';
import { DEFAULT_RESILIENCE, withResilience } from '../../../src/adapters/providers/resilience/resilient-provider.js';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { openAiSuccess } from '../../../src/adapters/providers/openai/openai.fake.js';
import { sendJson, useLoopbackFake } from '../../../src/test-support/loopback-server.js';
import { listen, type Listening } from './listen.js';

/*
 * Partial images end to end: openai-node 7.57 (`images.generate` / `images.edit` with `stream: true`, read by its
 * core/streaming.js) against /v1, whose OpenAI model is the real adapter, behind the resilience layer as in
 * production, calling the loopback OpenAI fake (src/adapters/providers/openai/openai.fake.ts), which streams partials as
 * OpenAI does. The route reads the partials from the generation's events (generation.partial_image, published by
 * the job), so these also show the job publishing them.
 */

const api = useLoopbackFake((images) => openAiSuccess(images.png.toString('base64')));

let h: Harness;
let server: Listening;
beforeEach(async () => {
  const openai = withResilience(createOpenAiProvider({ apiKey: 'sk-fake', baseUrl: api.server.origin }), { ...DEFAULT_RESILIENCE, timeoutMs: 30_000 });
  h = await createHarness({ providers: { openai } });
  server = await listen(h);
});
afterEach(async () => {
  await server.close();
  await h.close();
});

const client = () => new OpenAI({ apiKey: TEST_KEY, baseURL: `${server.origin}/v1`, maxRetries: 0 });
const collect = async <T>(stream: AsyncIterable<T>): Promise<T[]> => {
  const events: T[] = [];
  for await (const event of stream) events.push(event);
  return events;
};

describe('partial images on /v1', () => {
  it("streams OpenAI's partial images as they come, then one completed event with usage", async () => {
    const stream = await client().images.generate({
      model: 'openai/gpt-image-2',
      prompt: 'a lighthouse at dusk',
      size: '1024x1024',
      stream: true,
      partial_images: 2,
    });
    const events: ImageGenStreamEvent[] = await collect(stream);
    expect(events.map((event) => event.type)).toEqual(['image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed']);
    expect(events.map((event) => (event.type === 'image_generation.partial_image' ? event.partial_image_index : 'done'))).toEqual([0, 1, 'done']);
    expect(events[0]).toMatchObject({ background: 'auto', output_format: 'png', quality: 'medium', size: '1024x1024' });
    expect(Buffer.from(events[0]?.b64_json ?? '', 'base64').equals(api.images.png)).toBe(true);
    const completed = events.find((event): event is ImageGenCompletedEvent => event.type === 'image_generation.completed');
    expect(completed?.usage.output_tokens).toBeGreaterThan(0);
    expect(api.server.requests.map((request) => request.body)).toEqual([expect.objectContaining({ stream: true, partial_images: 2 })]);
  });

  it('streams partial images of an edit as image_edit events', async () => {
    const image = new File([new Uint8Array(api.images.png)], 'input.png', { type: 'image/png' });
    const stream = await client().images.edit({ model: 'openai/gpt-image-2', image, prompt: 'add a boat', stream: true, partial_images: 1 });
    const events: ImageEditStreamEvent[] = await collect(stream);
    expect(events.map((event) => event.type)).toEqual(['image_edit.partial_image', 'image_edit.completed']);
  });

  it('gives one completed event for a model that draws no partials', async () => {
    const stream = await client().images.generate({
      model: 'local/procedural',
      prompt: 'a lighthouse at dusk',
      size: '256x256',
      stream: true,
      partial_images: 3,
    });
    const events: ImageGenStreamEvent[] = await collect(stream);
    expect(events.map((event) => event.type)).toEqual(['image_generation.completed']);
  });

  it('sends a partial while OpenAI is still drawing, and keeps making the image for a client that leaves then', async () => {
    // OpenAI's stream held open after its first partial until the test has seen that partial: only a live stream passes.
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const b64 = api.images.png.toString('base64');
    api.server.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        `event: image_generation.partial_image\ndata: ${JSON.stringify({ type: 'image_generation.partial_image', partial_image_index: 0, b64_json: b64 })}\n\n`,
      );
      void released.then(() =>
        response.end(`event: image_generation.completed\ndata: ${JSON.stringify({ type: 'image_generation.completed', b64_json: b64, usage: {} })}\n\n`),
      );
    });
    const stream = await client().images.generate({
      model: 'openai/gpt-image-2',
      prompt: 'a lighthouse at dusk',
      size: '1024x1024',
      stream: true,
      partial_images: 2,
    });
    for await (const event of stream) {
      expect(event).toMatchObject({ type: 'image_generation.partial_image', partial_image_index: 0 });
      break;
    }
    release();
    await expect.poll(async () => (await json<{ images: unknown[] }>(await h.call('GET', '/api/images'))).images.length, { timeout: 5_000 }).toBe(1);
  });

  it("ends the stream with OpenAI's error event when the generation fails after it started", async () => {
    api.server.respondWith((_request, response) =>
      sendJson(response, 400, {
        error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', param: null, code: 'moderation_blocked' },
      }),
    );
    const stream = await client().images.generate({
      model: 'openai/gpt-image-2',
      prompt: 'a lighthouse at dusk',
      size: '1024x1024',
      stream: true,
      partial_images: 2,
    });
    const error = await collect(stream).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ error: { code: 'content_policy_violation', type: 'invalid_request_error' } });
  });
});
