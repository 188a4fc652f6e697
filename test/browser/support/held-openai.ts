import type { ServerResponse } from 'node:http';
import sharp from 'sharp';
import { isRecord } from '../../../src/adapters/providers/http-support.js';
import { fakeImageTokens, FAKE_TEXT_TOKENS } from '../../../src/adapters/providers/openai/openai.fake.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../src/test-support/loopback-server.js';

/** What a partial and the final picture look like: the same scene, sharper each time (three tones of one colour). */
const TONES = [
  { r: 60, g: 70, b: 110 },
  { r: 90, g: 110, b: 170 },
  { r: 120, g: 160, b: 230 },
];

export interface HeldOpenAi {
  baseUrl: string;
  server: LoopbackServer;
  /** Resolves once `count` generations reached the fake (each has sent the partials it asked for). */
  drawing(count: number): Promise<void>;
  /** Lets the n-th generation (from 0) finish with its image. */
  finish(index: number): void;
  /** Whether the n-th generation's call was cut off by the caller (a cancel). */
  cutOff(index: number): boolean;
  close(): Promise<void>;
}

/**
 * OpenAI Images on loopback as its GPT image models answer `stream: true` (openai-node ImageGenStreamEvent): the
 * partial images asked for, then, once the test lets that generation finish, the completed event with its usage.
 * So a test sees a generation running for as long as it needs, with partials on screen, however slow the machine.
 */
export async function startHeldOpenAi(): Promise<HeldOpenAi> {
  const images = await Promise.all(
    TONES.map((background) =>
      sharp({ create: { width: 256, height: 256, channels: 3, background } })
        .png()
        .toBuffer(),
    ),
  );
  const b64 = images.map((image) => image.toString('base64'));
  const releases: (() => void)[] = [];
  const released: Promise<void>[] = [];
  const closed: boolean[] = [];
  const drawn: number[] = [];
  let notify = (): void => undefined;
  const gate = (index: number): Promise<void> => {
    released[index] ??= new Promise<void>((resolve) => (releases[index] = resolve));
    return released[index];
  };
  const server = await startLoopbackServer(async (request, response: ServerResponse) => {
    if (request.method !== 'POST' || request.path !== '/v1/images/generations')
      return sendJson(response, 404, { error: { message: 'not here', type: 'invalid_request_error', param: null, code: null } });
    const body = isRecord(request.body) ? request.body : {};
    const index = drawn.length;
    drawn.push(0);
    response.on('close', () => (closed[index] = !response.writableFinished));
    const common = { created_at: 1_700_000_000, background: 'auto', output_format: 'png', quality: 'medium', size: String(body.size) };
    const outputTokens = fakeImageTokens(String(body.size), 'medium');
    const usage = { total_tokens: FAKE_TEXT_TOKENS + outputTokens, input_tokens: FAKE_TEXT_TOKENS, output_tokens: outputTokens };
    const streamed = body.stream === true;
    if (streamed) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (let partial = 0; partial < Math.min(2, Number(body.partial_images ?? 0)); partial += 1) {
        response.write(
          `event: image_generation.partial_image\ndata: ${JSON.stringify({ type: 'image_generation.partial_image', ...common, partial_image_index: partial, b64_json: b64[partial] })}\n\n`,
        );
      }
    }
    drawn[index] = 1;
    notify();
    await gate(index);
    if (closed[index] === true) return;
    if (!streamed) return sendJson(response, 200, { created: 1_700_000_000, data: [{ b64_json: b64[2] }], usage });
    response.end(`event: image_generation.completed\ndata: ${JSON.stringify({ type: 'image_generation.completed', ...common, b64_json: b64[2], usage })}\n\n`);
  });
  return {
    baseUrl: server.origin,
    server,
    drawing: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (drawn.filter((state) => state === 1).length >= count) resolve();
        };
        const previous = notify;
        notify = () => {
          previous();
          check();
        };
        check();
      }),
    finish: (index) => {
      void gate(index);
      releases[index]?.();
    },
    cutOff: (index) => closed[index] === true,
    close: async () => {
      for (let index = 0; index < drawn.length; index += 1) releases[index]?.();
      await server.close();
    },
  };
}
