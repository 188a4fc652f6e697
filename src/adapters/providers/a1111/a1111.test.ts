import { describe, expect, it } from 'vitest';
import { createA1111Provider } from './a1111-provider.js';
import { a1111Models } from './a1111-models.js';
import { loadConfig } from '../../../runtimes/node/config.js';
import { ProviderRefusal, ProviderUnavailable, type ProviderRequest } from '../../../ports/image-provider.js';
import { parametersFrom } from '../../../providers.js';
import { buildNodeProviderSet } from '../../../runtimes/node/providers.js';
import { a1111Success } from './a1111.fake.js';
import { onlyRequest, rejectionOf, sendJson, useLoopbackFake } from '../../../test-support/loopback-server.js';

/*
 * The real adapter over real HTTP against a loopback stand-in for an AUTOMATIC1111 (or Forge, or SD.Next) server
 * started with --api, asserted as AUTOMATIC1111/stable-diffusion-webui modules/api/models.py and api.py shape the
 * requests (POST /sdapi/v1/txt2img; GET /sdapi/v1/sd-models for the credentials check).
 */

const api = useLoopbackFake((images) => a1111Success(images));
const models = a1111Models('dreamshaper_8, sdxl_base [31e35c80fc] ,dreamshaper_8');

const provider = (auth: { username?: string; password?: string } = {}) =>
  createA1111Provider({ baseUrl: `${api.server.origin}/`, ...auth }, parametersFrom(models));
const request = (providerModel: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel,
  prompt: 'a lighthouse at dusk',
  negativePrompt: 'blurry',
  width: 768,
  height: 512,
  seed: 42,
  steps: 25,
  guidance: 6.5,
  ...extra,
});
const only = () => onlyRequest(api.server);

describe('Automatic1111 catalogue', () => {
  it('offers the loaded checkpoint plus each named one once, trimmed', () => {
    expect(models.map((model) => model.id)).toEqual(['a1111/default', 'a1111/dreamshaper_8', 'a1111/sdxl_base [31e35c80fc]']);
    expect(models.every((model) => model.pricing.kind === 'free')).toBe(true);
  });

  it('is enabled by A1111_BASE_URL alone, and lists its models either way', () => {
    const off = buildNodeProviderSet(loadConfig({ A1111_MODELS: 'dreamshaper_8' }));
    expect(off.models.map((model) => model.id)).toContain('a1111/dreamshaper_8');
    expect(off.statusOf('a1111')).toEqual({ available: false, name: 'Automatic1111', reason: 'set A1111_BASE_URL to enable provider a1111' });
    expect(buildNodeProviderSet(loadConfig({ A1111_BASE_URL: api.server.origin })).statusOf('a1111')).toEqual({ available: true, name: 'Automatic1111' });
  });
});

describe('Automatic1111 request', () => {
  it('POSTs JSON to /sdapi/v1/txt2img with every parameter under its A1111 name', async () => {
    await provider().generate(request('default'));
    const sent = only();
    expect(`${sent.method} ${sent.path}`).toBe('POST /sdapi/v1/txt2img');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'blurry',
      width: 768,
      height: 512,
      seed: 42,
      steps: 25,
      cfg_scale: 6.5,
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
    });
  });

  it('switches to a named checkpoint for the call through override_settings', async () => {
    await provider().generate(request('sdxl_base [31e35c80fc]'));
    expect(only().body).toMatchObject({ override_settings: { sd_model_checkpoint: 'sdxl_base [31e35c80fc]' } });
  });

  it('leaves out what the caller did not set, so the server applies its own defaults', async () => {
    await provider().generate({ providerModel: 'default', prompt: 'a lighthouse', width: 512, height: 512, seed: 1 });
    expect(only().body).not.toHaveProperty('negative_prompt');
    expect(only().body).not.toHaveProperty('cfg_scale');
    expect(only().body).not.toHaveProperty('override_settings');
  });

  it('sends HTTP Basic credentials for a server started with --api-auth', async () => {
    await provider({ username: 'artist', password: 's3cret:with:colons' }).generate(request('default'));
    expect(only().headers.authorization).toBe(`Basic ${Buffer.from('artist:s3cret:with:colons').toString('base64')}`);
  });
});

describe('Automatic1111 answer', () => {
  it('decodes images[0] and keeps the PNG byte for byte', async () => {
    const image = await provider().generate(request('default'));
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
  });

  it("turns FastAPI's 422 into a refusal naming the field", async () => {
    api.server.respondWith((_r, response) =>
      sendJson(response, 422, { detail: [{ loc: ['body', 'steps'], msg: 'value is not a valid integer', type: 'type_error.integer' }] }),
    );
    const error = await rejectionOf(provider().generate(request('default')));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Automatic1111 answered 422: body.steps: value is not a valid integer');
  });

  it("reports A1111's own error body (a missing checkpoint is a 500 there) as retryable, quoting it", async () => {
    api.server.respondWith((_r, response) =>
      sendJson(response, 500, { error: 'RuntimeError', detail: '', body: '', errors: 'CUDA out of memory. Tried to allocate 2.00 GiB' }),
    );
    const error = await rejectionOf(provider().generate(request('default')));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(String(error)).toContain('Automatic1111 answered 500: RuntimeError: CUDA out of memory');
  });

  it('reports wrong --api-auth credentials without echoing them', async () => {
    api.server.respondWith((_r, response) => sendJson(response, 401, { detail: 'Incorrect username or password' }, { 'WWW-Authenticate': 'Basic' }));
    const error = await rejectionOf(provider({ username: 'artist', password: 'wrong-pass-123' }).generate(request('default')));
    expect(String(error)).toContain("Automatic1111 answered 401: Incorrect username or password (check the provider's API key)");
    expect(String(error)).not.toContain('wrong-pass-123');
  });

  it('fails clearly when no image came back', async () => {
    api.server.respondWith((_r, response) => sendJson(response, 200, { images: [], parameters: {}, info: '{}' }));
    expect(String(await rejectionOf(provider().generate(request('default'))))).toContain('no image in images[0]');
  });
});

describe('Automatic1111 check', () => {
  it('lists the checkpoints with the --api-auth credentials, generating nothing', async () => {
    const check = await provider({ username: 'artist', password: 's3cret' }).check?.();
    expect(check).toEqual({ ok: true, endpoint: 'GET /sdapi/v1/sd-models', detail: 'answered 200' });
    expect([only().method, only().path, only().headers.authorization]).toEqual([
      'GET',
      '/sdapi/v1/sd-models',
      `Basic ${Buffer.from('artist:s3cret').toString('base64')}`,
    ]);
  });

  it('reports a server that cannot be reached', async () => {
    const check = await createA1111Provider({ baseUrl: 'http://127.0.0.1:1' }, parametersFrom(models)).check?.();
    expect(check).toMatchObject({ ok: false, detail: expect.stringContaining('Automatic1111 could not be reached') });
  });
});
