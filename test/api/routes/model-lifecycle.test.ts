import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { sampleImages } from '../../../src/test-support/fake-images.js';

/*
 * Models their provider retires: OpenAI deprecated gpt-image-1.5 on 2026-06-02 and shuts it down on 2026-12-01;
 * dall-e-3 was shut down on 2026-05-12. The harness clock starts on 2026-11-20.
 */

let h: Harness;
let calls = 0;
const openai: ImageProvider = {
  id: 'openai',
  generate: async () => {
    calls += 1;
    return { bytes: new Uint8Array((await sampleImages()).png), contentType: 'image/png' };
  },
};

beforeEach(async () => {
  calls = 0;
  h = await createHarness({ providers: { openai } });
});
afterEach(async () => {
  await h.close();
});

const generate = (model: string) => h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model });

describe('a shut-down model', () => {
  it('stays readable, unavailable, with the day it shut down and its replacement', async () => {
    const res = await h.call('GET', '/api/models/openai/dall-e-3');
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      id: 'openai/dall-e-3',
      lifecycle: 'shut_down',
      available: false,
      shutdown_at: '2026-05-12',
      replacement: 'openai/gpt-image-2',
      warning: 'openai/dall-e-3 was shut down by its provider on 2026-05-12; use openai/gpt-image-2 instead',
    });
  });

  it('refuses to generate with a 400 naming its replacement, without calling the provider', async () => {
    const res = await generate('openai/dall-e-3');
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: 'Invalid model',
      code: 'INVALID_MODEL',
      details: {
        model: 'openai/dall-e-3',
        message: 'openai/dall-e-3 was shut down by its provider on 2026-05-12; use openai/gpt-image-2 instead',
        shutdown_at: '2026-05-12',
        replacement: 'openai/gpt-image-2',
      },
    });
    expect(calls).toBe(0);
  });

  it('keeps the images made with it readable once it is shut down', async () => {
    const made = await json(await generate('openai/gpt-image-1.5'));
    h.clock.set('2026-12-01T00:00:00.000Z');
    expect((await generate('openai/gpt-image-1.5')).status).toBe(400);
    const image = await h.call('GET', `/api/images/${String(made.id)}`);
    expect(image.status).toBe(200);
    expect(await json(image)).toMatchObject({ model: 'openai/gpt-image-1.5' });
    expect(await json(await h.call('GET', '/api/models/openai/gpt-image-1.5'))).toMatchObject({ lifecycle: 'shut_down' });
  });
});

describe('a deprecated model', () => {
  it('warns in its catalogue entry and still generates', async () => {
    expect(await json(await h.call('GET', '/api/models/openai/gpt-image-1.5'))).toMatchObject({
      lifecycle: 'deprecated',
      available: true,
      deprecated_at: '2026-06-02',
      shutdown_at: '2026-12-01',
      warning: 'openai/gpt-image-1.5 is deprecated since 2026-06-02 and shuts down on 2026-12-01; use openai/gpt-image-2 instead',
    });
  });

  it('answers a generation with Deprecation, Sunset and a Link to its replacement', async () => {
    const res = await generate('openai/gpt-image-1.5');
    expect(res.status).toBe(201);
    expect(res.headers.get('Deprecation')).toBe(`@${Date.UTC(2026, 5, 2) / 1000}`);
    expect(res.headers.get('Sunset')).toBe('Tue, 01 Dec 2026 00:00:00 GMT');
    expect(res.headers.get('Link')).toBe('</api/models/openai/gpt-image-2>; rel="successor-version"');
  });

  it('sends no Deprecation header for a current model', async () => {
    const res = await generate('openai/gpt-image-2');
    expect(res.status).toBe(201);
    expect(res.headers.get('Deprecation')).toBeNull();
    expect(await json(await h.call('GET', '/api/models/openai/gpt-image-2'))).toMatchObject({ lifecycle: 'active' });
  });

  it('was active before its deprecation day', async () => {
    h.clock.set('2026-06-01T23:59:59.000Z');
    expect(await json(await h.call('GET', '/api/models/openai/gpt-image-1.5'))).toMatchObject({ lifecycle: 'active' });
    expect((await generate('openai/gpt-image-1.5')).headers.get('Deprecation')).toBeNull();
  });
});

describe('the model list', () => {
  it('shows every model with its lifecycle', async () => {
    const { models } = await json<{ models: { id: string; lifecycle: string }[] }>(await h.call('GET', '/api/models?limit=100'));
    const byId = new Map(models.map((model) => [model.id, model.lifecycle]));
    expect(byId.get('openai/gpt-image-1')).toBe('shut_down');
    expect(byId.get('openai/gpt-image-1.5')).toBe('deprecated');
    expect(byId.get('local/procedural')).toBe('active');
    expect(models.every((model) => ['active', 'deprecated', 'shut_down'].includes(model.lifecycle))).toBe(true);
  });
});
