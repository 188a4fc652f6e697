import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { countingStandIn } from '../../../src/test-support/stand-in-provider.js';

let h: Harness;
afterEach(async () => {
  await h.close();
});

interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string };
}

const generate = (model: string) => h.call('POST', '/v1/images/generations', { model, prompt: 'a lighthouse at dusk', size: '1024x1024' });

describe("OpenAI's model names on /v1", () => {
  it('map to openai/<name> where OpenAI is configured, and are listed by /v1/models', async () => {
    const openai = countingStandIn('openai');
    h = await createHarness({ providers: { openai: openai.provider } });
    const res = await generate('gpt-image-2');
    expect(res.status).toBe(200);
    const images = await json<{ images: { model: string }[] }>(await h.call('GET', '/api/images'));
    expect(images.images.map((image) => image.model)).toEqual(['openai/gpt-image-2']);
    expect(openai.calls()).toBe(1);

    const models = await json<{ data: { id: string; owned_by: string }[] }>(await h.call('GET', '/v1/models'));
    expect(models.data.map((model) => model.id)).toEqual(expect.arrayContaining(['gpt-image-2', 'openai/gpt-image-2', 'local/procedural']));
    expect(await json(await h.call('GET', '/v1/models/gpt-image-2'))).toMatchObject({ id: 'gpt-image-2', owned_by: 'openai' });
  });

  it('refuse a retired OpenAI model naming its replacement, before any call', async () => {
    const openai = countingStandIn('openai');
    h = await createHarness({ providers: { openai: openai.provider } });
    const res = await generate('gpt-image-1');
    expect(res.status).toBe(400);
    expect((await json<OpenAiError>(res)).error.message).toMatch(/openai\/gpt-image-/);
    expect(openai.calls()).toBe(0);
  });

  it('answer a clear 400 naming what to use where OpenAI is not configured, or for a name imagegate does not offer', async () => {
    h = await createHarness();
    const unconfigured = await json<OpenAiError>(await generate('gpt-image-2'));
    expect(unconfigured.error).toMatchObject({ param: 'model' });
    expect(unconfigured.error.message).toContain('OpenAI is not configured on this server');
    expect(unconfigured.error.message).toContain('OPENAI_API_KEY');
    expect(unconfigured.error.message).toContain('local/procedural');
    const unknown = await json<OpenAiError>(await generate('dall-e-2'));
    expect(unknown.error.message).toContain("imagegate does not offer OpenAI's dall-e-2; use local/procedural");
    const models = await json<{ data: { id: string }[] }>(await h.call('GET', '/v1/models'));
    expect(models.data.map((model) => model.id)).not.toContain('gpt-image-2');
  });
});
