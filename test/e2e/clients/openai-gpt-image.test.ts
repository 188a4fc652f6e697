import { afterEach, describe, expect, it } from 'vitest';
import { estimateImageTokens } from '../../../src/domain/models/pricing.js';
import type { ImageProvider, ProviderRequest } from '../../../src/ports/image-provider.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { countingStandIn } from '../../../src/test-support/stand-in-provider.js';

/**
 * `/v1` with OpenAI's own model (gpt-image-2), its provider a stand-in that draws offline and keeps each request:
 * what reaches the provider, the size rules OpenAI states, and the answer's usage and echoed fields.
 */
let h: Harness;
afterEach(async () => {
  await h.close();
});

interface OpenAiError {
  error: { message: string; param: string | null };
}

async function withOpenAi(): Promise<ProviderRequest[]> {
  const seen: ProviderRequest[] = [];
  const standIn = countingStandIn('openai');
  const provider: ImageProvider = {
    id: 'openai',
    generate: (request, options) => {
      seen.push(request);
      return standIn.provider.generate(request, options);
    },
  };
  h = await createHarness({ providers: { openai: provider } });
  return seen;
}

const generate = (body: Record<string, unknown>) => h.call('POST', '/v1/images/generations', { model: 'gpt-image-2', prompt: 'a lighthouse at dusk', ...body });

describe('gpt-image-2 on /v1', () => {
  it('passes moderation low to the provider, and answers b64_json with size, quality, background and estimated usage', async () => {
    const seen = await withOpenAi();
    const res = await generate({ size: '1024x1024', moderation: 'low', quality: 'low', n: 2 });
    expect(res.status).toBe(200);
    expect(seen.map((request) => request.moderation)).toEqual(['low', 'low']);
    const body = await json<{
      data: { b64_json?: string }[];
      usage: Record<string, unknown>;
      quality: string;
      background: string;
      size: string;
      output_format: string;
    }>(res);
    expect(body.data.every((image) => typeof image.b64_json === 'string')).toBe(true);
    expect(body).toMatchObject({ size: '1024x1024', quality: 'low', background: 'auto', output_format: 'png' });
    // Two calls, each billed its prompt (19 characters: 5 tokens at 4 characters a token) and its low 1024x1024 image.
    const out = 2 * estimateImageTokens('low', 1024, 1024);
    expect(body.usage).toEqual({
      input_tokens: 10,
      input_tokens_details: { image_tokens: 0, text_tokens: 10 },
      output_tokens: out,
      output_tokens_details: { image_tokens: out, text_tokens: 0 },
      total_tokens: 10 + out,
    });
  });

  it('reports the quality the provider is called at (medium) when none is asked', async () => {
    await withOpenAi();
    const body = await json<{ quality: string }>(await generate({ size: '1024x1024' }));
    expect(body.quality).toBe('medium');
  });

  it.each([
    ['1000x1000', /multiple of 16/],
    ['2048x480', /at most 3 times the shorter/],
    ['512x512', /at least 655,360 pixels|655,360 to 8,294,400 pixels/],
    ['3840x3840', /at most 3840|8,294,400/],
  ])("refuses size %s as OpenAI's rules for gpt-image-2 do, naming size and the rules, before any call", async (size, rule) => {
    const seen = await withOpenAi();
    const res = await generate({ size });
    expect(res.status).toBe(400);
    const { error } = await json<OpenAiError>(res);
    expect(error.param).toBe('size');
    expect(error.message).toMatch(rule);
    expect(error.message).toContain('each a multiple of 16, 655,360 to 8,294,400 pixels, the longer side at most 3 times the shorter');
    expect(seen).toHaveLength(0);
  });

  it('takes the free-form sizes OpenAI allows: 1536x864, 3840x2160 and 2400x800', async () => {
    const seen = await withOpenAi();
    for (const size of ['1536x864', '3840x2160', '2400x800']) {
      const res = await generate({ size, response_format: 'url' });
      expect(res.status, size).toBe(200);
      expect((await json<{ size: string }>(res)).size).toBe(size);
    }
    expect(seen.map((request) => `${request.width}x${request.height}`)).toEqual(['1536x864', '3840x2160', '2400x800']);
  });

  it('maps quality hd to high, without a warning', async () => {
    const seen = await withOpenAi();
    const res = await generate({ size: '1024x1024', quality: 'hd', response_format: 'url' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Warning')).toBeNull();
    expect(seen[0]?.quality).toBe('high');
    expect((await json<{ quality: string }>(res)).quality).toBe('high');
  });
});
