import { describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../../src/adapters/providers/openai/openai-provider.js';
import { ProviderOutcomeUnknown, ProviderRefusal, type PartialImage, type ProviderRequest } from '../../../src/ports/image-provider.js';
import { FAKE_TEXT_TOKENS, openAiSuccess } from '../../../src/adapters/providers/openai/openai.fake.js';
import { onlyRequest, rejectionOf, useLoopbackFake, type ReceivedForm } from '../../../src/test-support/loopback-server.js';

/*
 * Partial images over real HTTP against the loopback OpenAI fake, which streams as openai-node 7.57 reads it
 * (node_modules/openai/resources/images.d.ts ImageGenStreamEvent and ImageEditStreamEvent; core/streaming.js):
 * `stream: true` with `partial_images: N` answers N `<kind>.partial_image` events, then `<kind>.completed`.
 */

const edits: ReceivedForm[] = [];
const api = useLoopbackFake((images) => {
  edits.length = 0;
  return openAiSuccess(images.png.toString('base64'), edits);
});

const provider = () => createOpenAiProvider({ apiKey: 'sk-test', baseUrl: api.server.origin });
const request = (providerModel = 'gpt-image-2'): ProviderRequest => ({ providerModel, prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 7 });

/** Calls with `count` partials asked, collecting those that arrive. */
async function withPartials(asked: ProviderRequest, count = 2) {
  const partials: PartialImage[] = [];
  const image = await provider().generate(asked, { partialImages: { count, onPartial: (partial) => partials.push(partial) } });
  return { image, partials };
}

/** Answers every call with this event stream, written as given. */
const streamAnswer = (...chunks: string[]) =>
  api.server.respondWith((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks) response.write(chunk);
    response.end();
  });

const partialEvent = (index: number) =>
  `event: image_generation.partial_image\ndata: ${JSON.stringify({ type: 'image_generation.partial_image', partial_image_index: index, b64_json: api.images.png.toString('base64') })}\n\n`;

describe('OpenAI partial images', () => {
  it('asks a generation for stream: true and the partials wanted, and hands each partial on as it arrives', async () => {
    const { image, partials } = await withPartials(request());
    expect(onlyRequest(api.server).body).toMatchObject({ stream: true, partial_images: 2 });
    expect(partials.map((partial) => partial.index)).toEqual([0, 1]);
    expect(Buffer.from(partials[0]?.b64_json ?? '', 'base64').equals(api.images.png)).toBe(true);
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    expect(image.usage).toEqual({ inputTextTokens: FAKE_TEXT_TOKENS, inputImageTokens: 0, outputImageTokens: 1756, outputTextTokens: 0 });
  });

  it('streams an edit the same way, reading image_edit events', async () => {
    const images = [{ bytes: api.images.png, contentType: 'image/png', width: 80, height: 48, filename: 'image-0.png' }];
    const { image, partials } = await withPartials({ ...request(), images }, 3);
    expect(edits[0]?.fields).toMatchObject({ stream: 'true', partial_images: '3' });
    expect(partials.map((partial) => partial.index)).toEqual([0, 1, 2]);
    expect(image.usage?.inputImageTokens).toBeGreaterThan(0);
  });

  it('asks for no stream without partials, nor of DALL-E, which draws none', async () => {
    await provider().generate(request());
    expect(onlyRequest(api.server).body).not.toHaveProperty('stream');
    api.server.requests.length = 0;
    const { partials } = await withPartials(request('dall-e-3'));
    expect(onlyRequest(api.server).body).not.toHaveProperty('partial_images');
    expect(partials).toEqual([]);
  });

  it('takes fewer partials than asked, as OpenAI may send the final image first', async () => {
    streamAnswer(
      partialEvent(0),
      `data: ${JSON.stringify({ type: 'image_generation.completed', b64_json: api.images.png.toString('base64'), usage: { input_tokens: 5, output_tokens: 9 } })}\n\n`,
    );
    const { image, partials } = await withPartials(request(), 3);
    expect(partials).toHaveLength(1);
    expect(image.usage).toEqual({ inputTextTokens: 5, inputImageTokens: 0, outputImageTokens: 9, outputTextTokens: 0 });
  });

  it('reads events split across chunks and lines ended by CRLF', async () => {
    const completed = `event: image_generation.completed\r\ndata: ${JSON.stringify({ type: 'image_generation.completed', b64_json: api.images.png.toString('base64'), usage: {} })}\r\n\r\n`;
    streamAnswer(partialEvent(0).slice(0, 20), partialEvent(0).slice(20), completed.slice(0, 50), completed.slice(50));
    const { partials } = await withPartials(request());
    expect(partials.map((partial) => partial.index)).toEqual([0]);
  });
});

describe('OpenAI partial images: money rules', () => {
  it('treats a stream that ends without its completed event as an unknown outcome, not a retry', async () => {
    streamAnswer(partialEvent(0), partialEvent(1));
    expect(await rejectionOf(withPartials(request()))).toBeInstanceOf(ProviderOutcomeUnknown);
  });

  it('treats a connection cut mid-stream as an unknown outcome', async () => {
    api.server.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(partialEvent(0), () => response.destroy());
    });
    expect(await rejectionOf(withPartials(request()))).toBeInstanceOf(ProviderOutcomeUnknown);
  });

  it('treats an error event blocking the prompt as a refusal, and any other error event as an unknown outcome', async () => {
    streamAnswer(
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', code: 'moderation_blocked', param: null } })}\n\n`,
    );
    expect(String(await rejectionOf(withPartials(request())))).toContain('moderation_blocked');
    expect(await rejectionOf(withPartials(request()))).toBeInstanceOf(ProviderRefusal);
    streamAnswer(
      partialEvent(0),
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { message: 'The server had an error', type: 'server_error', code: null, param: null } })}\n\n`,
    );
    expect(await rejectionOf(withPartials(request()))).toBeInstanceOf(ProviderOutcomeUnknown);
  });
});
