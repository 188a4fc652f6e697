import { describe, expect, it } from 'vitest';
import { TEST_KEY, json } from '../../../src/test-support/harness.js';
import { maskPng, photoPng } from '../../support/sample-images.js';
import { listenEach } from './listen-each.js';

/**
 * The clients people point at OpenAI's Images API, unchanged but for the base URL and key, against a listening
 * server: the Vercel AI SDK (`ai` 7 with `@ai-sdk/openai` 4) and LangChain's DallEAPIWrapper (`@langchain/openai`
 * 1.6). Both declare Node >= 22; they load on Node 20 today, and where one does not, its tests are skipped with
 * the reason printed (CI runs Node 24 too, where they always run).
 */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

async function load<T>(name: string, importer: () => Promise<T>): Promise<T | undefined> {
  try {
    return await importer();
  } catch (error) {
    if (NODE_MAJOR >= 22) throw error;
    console.log(
      `skipping ${name} tests: it does not load on Node ${process.versions.node} (it needs Node 22 or newer): ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

const ai = await load('ai', () => import('ai'));
const aiSdkOpenAi = await load('@ai-sdk/openai', () => import('@ai-sdk/openai'));
const langchain = await load('@langchain/openai', () => import('@langchain/openai'));

const live = listenEach({ workers: false });
const PNG = [0x89, 0x50, 0x4e, 0x47];

interface Listed {
  kind: string;
  prompt: string;
  width: number;
  source_image_ids: string[];
  parameters: Record<string, unknown>;
}
const gallery = async (): Promise<Listed[]> => (await json<{ images: Listed[] }>(await live.h.call('GET', '/api/images?limit=100'))).images;

describe.skipIf(ai === undefined || aiSdkOpenAi === undefined)('the Vercel AI SDK (ai 7, @ai-sdk/openai 4)', () => {
  const model = () => {
    if (ai === undefined || aiSdkOpenAi === undefined) throw new Error('not loaded');
    return aiSdkOpenAi.createOpenAI({ baseURL: `${live.server.origin}/v1`, apiKey: TEST_KEY }).image('local/procedural');
  };

  it('generates: the image comes back as bytes, and is in the gallery', async () => {
    if (ai === undefined) return;
    const { image, providerMetadata } = await ai.generateImage({ model: model(), prompt: 'a lighthouse on a cliff at dusk', size: '256x256', maxRetries: 0 });
    expect([...image.uint8Array.subarray(0, 4)]).toEqual(PNG);
    expect(providerMetadata.openai?.images).toEqual([expect.objectContaining({ size: '256x256', outputFormat: 'png' })]);
    expect((await gallery()).map((made) => made.width)).toEqual([256]);
  });

  it('edits with a mask, though it sends no response_format: the answer is base64, as it reads it', async () => {
    if (ai === undefined) return;
    const { image } = await ai.generateImage({
      model: model(),
      prompt: {
        text: 'a red boat on the water',
        images: [new Uint8Array(await photoPng(96, 64))],
        mask: new Uint8Array(await maskPng(96, 64, { left: 20, top: 10, width: 30, height: 24 })),
      },
      maxRetries: 0,
    });
    expect([...image.uint8Array.subarray(0, 4)]).toEqual(PNG);
    const made = (await gallery()).find((entry) => entry.kind === 'generated');
    expect(made?.source_image_ids).toHaveLength(1);
    expect(made?.parameters.mask_image_id).toMatch(/^img_/);
  });
});

describe.skipIf(langchain === undefined)("LangChain's DallEAPIWrapper (@langchain/openai 1.6) with its defaults", () => {
  const wrapper = (fields: Record<string, unknown> = {}) => {
    if (langchain === undefined) throw new Error('not loaded');
    // Only the model is named: every other field is the wrapper's default (style vivid, quality standard, url).
    return new langchain.DallEAPIWrapper({ apiKey: TEST_KEY, baseUrl: `${live.server.origin}/v1`, model: 'local/procedural', ...fields });
  };

  it('makes an image at its default 1024x1024, vivid and standard: the URL of the stored image', async () => {
    const url: unknown = await wrapper().invoke('a lighthouse on a cliff at dusk');
    expect(url).toMatch(/^http:\/\/localhost:8787\/files\/generated\/img_\w+\.png$/);
    expect((await gallery()).map((made) => made.width)).toEqual([1024]);
  });

  it('answers base64 when asked for b64_json', async () => {
    const b64: unknown = await wrapper({ responseFormat: 'b64_json', size: '256x256' }).invoke('a quiet harbour');
    expect([...Buffer.from(String(b64), 'base64').subarray(0, 4)]).toEqual(PNG);
  });

  it("is told with dall-e-3, the wrapper's default model, that it is shut down and what replaces it", async () => {
    if (langchain === undefined) return;
    const error = await new langchain.DallEAPIWrapper({ apiKey: TEST_KEY, baseUrl: `${live.server.origin}/v1` })
      .invoke('a quiet harbour')
      .catch((e: unknown) => e);
    expect(String(error)).toMatch(/dall-e-3|shut down/i);
  });
});
