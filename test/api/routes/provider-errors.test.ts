import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderAccountProblem, ProviderCircuitOpen, ProviderRefusal, ProviderUnavailable, type ImageProvider } from '../../../src/ports/image-provider.js';
import { createHarness, HARNESS_TARGET, json, type Harness } from '../../../src/test-support/harness.js';

/* What a caller sees of each kind of provider failure, and what the operator finds in the log. */

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A harness whose procedural model fails with `error`, logging JSON lines into `lines`. */
async function failingWith(error: unknown): Promise<{ h: Harness; lines: Record<string, unknown>[] }> {
  const failing: ImageProvider = { id: 'local', generate: () => Promise.reject(error) };
  h = await createHarness({ providers: { local: failing } });
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  // The service in wrangler dev logs to its console, which these tests do not read.
  if (HARNESS_TARGET === 'in-process') h.deps.logger = pino({ level: 'info' }, sink);
  return { h, lines };
}

const generate = (harness: Harness) => harness.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'local/procedural' });

describe('provider failures as the caller sees them', () => {
  it('answers a refusal with 400 GENERATION_REFUSED quoting the provider', async () => {
    const { h } = await failingWith(new ProviderRefusal('fal answered 422: body.num_inference_steps: ensure this value is less than or equal to 12'));
    const res = await generate(h);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: 'Image generation refused',
      code: 'GENERATION_REFUSED',
      details: { model: 'local/procedural', message: 'fal answered 422: body.num_inference_steps: ensure this value is less than or equal to 12' },
    });
  });

  it('answers an account out of credit with 502 and a generic message, the detail going to the log only', async () => {
    const detail = 'OpenAI answered 429: You exceeded your current quota, please check your plan and billing details. (insufficient_quota)';
    const { h, lines } = await failingWith(new ProviderAccountProblem(detail, 429));
    const res = await generate(h);
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body).toEqual({
      error: 'Image provider unavailable',
      code: 'PROVIDER_UNAVAILABLE',
      details: { model: 'local/procedural', message: "the model's provider cannot be used right now; the operator has been told (see the server log)" },
    });
    expect(res.headers.get('Retry-After')).toBeNull();
    expect(JSON.stringify(body)).not.toContain('quota');
    if (HARNESS_TARGET === 'in-process')
      expect(lines).toContainEqual(expect.objectContaining({ level: 50, err: detail, model: 'local/procedural', msg: expect.stringContaining('operator') }));
  });

  it('answers a provider that is down with 503 and its own Retry-After', async () => {
    const { h } = await failingWith(new ProviderUnavailable('Replicate answered 503: upstream unavailable', 503, 12_000));
    const res = await generate(h);
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('12');
    expect(await json(res)).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { message: 'Replicate answered 503: upstream unavailable', retry_after: 12 },
    });
  });

  it('answers an open breaker with 503 and the seconds until it lets a call through', async () => {
    const { h } = await failingWith(new ProviderCircuitOpen('fal is failing repeatedly; not calling it for another 25 s', 503, 24_200));
    const res = await generate(h);
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('25');
  });

  it('answers anything else (a bug, a malformed answer) with 500 GENERATION_FAILED', async () => {
    const { h } = await failingWith(new Error('Replicate prediction p1 succeeded without an output file'));
    const res = await generate(h);
    expect(res.status).toBe(500);
    expect(await json(res)).toEqual({
      error: 'Image generation failed',
      code: 'GENERATION_FAILED',
      details: { message: 'Replicate prediction p1 succeeded without an output file' },
    });
  });
});
