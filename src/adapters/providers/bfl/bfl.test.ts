import { describe, expect, it } from 'vitest';
import { createBflProvider } from './bfl-provider.js';
import { bflModels } from './bfl-models.js';
import { bflFlow, type BflFakeOptions, type BflRun } from './bfl.fake.js';
import { withResilience, type ResilienceOptions } from '../resilience/resilient-provider.js';
import { beforeAcceptance, neverSent } from '../failure-policy.js';
import { computeCost } from '../../../domain/models/pricing.js';
import {
  ProviderAccountProblem,
  ProviderOutcomeUnknown,
  ProviderRefusal,
  ProviderUnavailable,
  type AcceptedJob,
  type CallJournal,
  type InputImage,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import { parametersFrom } from '../../../providers.js';
import { rejectionOf, startLoopbackServer, useLoopbackFake } from '../../../test-support/loopback-server.js';

/*
 * The real adapter over real HTTP against a loopback stand-in for https://api.bfl.ai (bfl.fake.ts, which cites the
 * API reference pages it follows): submit with `x-key`, follow the regional `polling_url` as given, download the
 * signed sample without the key; moderation, 429 with Retry-After, 402 and outages mapped; a task journaled at once
 * and resumed, never submitted twice.
 */

const KEY = 'bfl-key-MUST-NOT-LEAK:5e1f';
const api = useLoopbackFake((images) => bflFlow(images));
const provider = () => createBflProvider({ apiKey: KEY, baseUrl: api.server.origin, pollIntervalMs: 5 }, parametersFrom(bflModels));
const request = (extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel: 'flux-2-pro',
  prompt: 'a lighthouse at dusk',
  width: 1024,
  height: 1024,
  seed: 42,
  ...extra,
});
const paths = () => api.server.requests.map((r) => `${r.method} ${r.path.replace(/id=[^&]+/, 'id=ID').replace(/\?se=.*$/, '?signed')}`);
const submits = () => api.server.requests.filter((r) => r.method === 'POST').length;
/** The documented flow with other options: each test gets its own tasks. */
function flow(options: BflFakeOptions): ReturnType<typeof bflFlow> {
  const responder = bflFlow(api.images, options);
  api.server.respondWith(responder);
  return responder;
}
const input = (format: 'png' | 'jpeg' | 'webp', index: number): InputImage => ({
  bytes: new Uint8Array(api.images[format]),
  contentType: `image/${format}`,
  width: 80,
  height: 48,
  filename: `image-${index}.${format === 'jpeg' ? 'jpg' : format}`,
});
const resilient = (overrides: Partial<ResilienceOptions> = {}) =>
  withResilience(provider(), {
    timeoutMs: 5_000,
    retries: 2,
    baseDelayMs: 1,
    maxDelayMs: 1,
    maxConcurrent: 1,
    breakerThreshold: 5,
    breakerCooldownMs: 1_000,
    ...overrides,
  });

describe('BFL generation', () => {
  it('submits with x-key, polls the regional polling_url as given, and downloads the signed sample without the key', async () => {
    const image = await provider().generate(request());
    expect(paths()).toEqual([
      'POST /v1/flux-2-pro',
      'GET /eu2/v1/get_result?id=ID',
      'GET /eu2/v1/get_result?id=ID',
      expect.stringMatching(/^GET \/delivery\/eu2\/[^/]+\/sample\.png\?signed$/),
    ]);
    const [submit, poll, , download] = api.server.requests;
    expect([submit?.headers['x-key'], submit?.headers['content-type'], poll?.headers['x-key']]).toEqual([KEY, 'application/json', KEY]);
    expect(download?.headers['x-key']).toBeUndefined();
    expect(submit?.body).toEqual({ prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 42, safety_tolerance: 2, output_format: 'png' });
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    expect([image.contentType, image.seed]).toEqual(['image/png', 42]);
  });

  it('sends [flex] its steps and guidance with prompt upsampling off, and [max] neither', async () => {
    await provider().generate(request({ providerModel: 'flux-2-flex', width: 1920, height: 1088, steps: 30, guidance: 4.5 }));
    await provider().generate(request({ providerModel: 'flux-2-max', steps: 30, guidance: 4.5 }));
    const [flex, max] = api.server.requests.filter((r) => r.method === 'POST');
    expect(flex?.body).toEqual({
      prompt: 'a lighthouse at dusk',
      width: 1920,
      height: 1088,
      seed: 42,
      steps: 30,
      guidance: 4.5,
      prompt_upsampling: false,
      safety_tolerance: 2,
      output_format: 'png',
    });
    expect(max?.path).toBe('/v1/flux-2-max');
    expect(max?.body).not.toHaveProperty('steps');
  });

  it('sends Kontext the aspect ratio nearest to the size, no pixel size', async () => {
    await provider().generate(request({ providerModel: 'flux-kontext-max', width: 1344, height: 768 }));
    expect(api.server.requests[0]?.path).toBe('/v1/flux-kontext-max');
    expect(api.server.requests[0]?.body).toEqual({
      prompt: 'a lighthouse at dusk',
      aspect_ratio: '16:9',
      seed: 42,
      prompt_upsampling: false,
      safety_tolerance: 2,
      output_format: 'png',
    });
  });

  it('checks the key by reading the credit balance, generating nothing', async () => {
    expect(await provider().check?.()).toEqual({ ok: true, endpoint: 'GET /v1/credits', detail: 'answered 200' });
    expect(api.server.requests.map((r) => [r.method, r.path, r.headers['x-key']])).toEqual([['GET', '/v1/credits', KEY]]);
  });
});

describe('BFL edits', () => {
  it('sends FLUX.2 every image in order as plain base64 in input_image, input_image_2...', async () => {
    await provider().generate(request({ images: [input('png', 0), input('jpeg', 1), input('webp', 2)] }));
    const body = api.server.requests[0]?.body as Record<string, string>;
    expect(Object.keys(body).filter((field) => field.startsWith('input_image'))).toEqual(['input_image', 'input_image_2', 'input_image_3']);
    expect(Buffer.from(String(body.input_image_2), 'base64').equals(api.images.jpeg)).toBe(true);
    expect(body.input_image).toBe(api.images.png.toString('base64'));
  });

  it('sends Kontext its image as input_image', async () => {
    await provider().generate(request({ providerModel: 'flux-kontext-pro', images: [input('webp', 0)] }));
    expect(api.server.requests[0]?.body).toMatchObject({ input_image: api.images.webp.toString('base64'), aspect_ratio: '1:1' });
  });

  it('refuses more images than the model takes before anything reaches BFL', async () => {
    const five = [0, 1, 2, 3, 4].map((index) => input('png', index));
    const error = await rejectionOf(provider().generate(request({ providerModel: 'flux-kontext-pro', images: five })));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('flux-kontext-pro takes at most 4 input images');
    expect(api.server.requests).toHaveLength(0);
  });

  it("prices an edit as BFL's submit answer charges it: started megapixels out, and of every input", async () => {
    await provider().generate(request({ width: 1920, height: 1088, images: [input('png', 0)] }));
    const pricing = bflModels.find((model) => model.id === 'bfl/flux-2-pro')?.pricing;
    if (pricing === undefined) throw new Error('bfl/flux-2-pro is missing from the catalogue');
    const usd = computeCost(pricing, { width: 1920, height: 1088, inputs: [{ width: 80, height: 48 }] });
    // 2 MP out (the first at $0.03, the second $0.015) and 1 started input MP at $0.015: 6 credits.
    expect(usd).toBeCloseTo(0.06, 12);
    // The same body sent again: the fake answers the credits BFL would charge for it (1 credit = $0.01).
    const sent = JSON.stringify(api.server.requests[0]?.body);
    const answer = (await (await fetch(`${api.server.origin}/v1/flux-2-pro`, { method: 'POST', headers: { 'x-key': KEY }, body: sent })).json()) as {
      cost: number;
      output_mp: number;
    };
    expect([answer.cost / 100, answer.output_mp]).toEqual([usd, 1.99]);
  });
});

describe('BFL failures', () => {
  it.each(['Request Moderated', 'Content Moderated'] as const)('refuses a task that ends %s, saying BFL does not charge it', async (end) => {
    flow({ run: { end } });
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toMatch(new RegExp(`${end}, not charged\\): .*Moderation Reasons`));
  });

  it.each<[BflRun['end'], string]>([
    ['Error', 'failed: Internal generation error'],
    ['Task not found', 'no longer knows task'],
  ])('fails a task that ends %s, and never submits it again', async (end, words) => {
    flow({ run: { end } });
    const error = await rejectionOf(resilient().generate(request()));
    expect(error).not.toBeInstanceOf(ProviderUnavailable);
    expect(String(error)).toContain(words);
    expect(submits()).toBe(1);
  });

  it("passes on BFL's Retry-After with a 429, which made no task, and retries it", async () => {
    flow({ failSubmits: [{ status: 429, retryAfter: '7' }] });
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7_000, message: expect.stringContaining('Too many concurrent requests') });
    const tasks = flow({ failSubmits: [{ status: 429, retryAfter: '0' }] });
    await resilient().generate(request());
    expect([submits(), tasks.tasks()]).toEqual([3, 1]);
  });

  it("reports 402 as the operator's problem, never retried", async () => {
    flow({ failSubmits: [{ status: 402 }] });
    const error = await rejectionOf(resilient().generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('out of credit');
    expect(String(error)).not.toContain(KEY);
    expect(submits()).toBe(1);
  });

  it('retries an outage before acceptance (a 503, a refused connection): nothing was accepted', async () => {
    const tasks = flow({ failSubmits: [{ status: 503 }] });
    await resilient().generate(request());
    expect([submits(), tasks.tasks()]).toEqual([2, 1]);
    const closed = await startLoopbackServer();
    await closed.close();
    const refused = await rejectionOf(createBflProvider({ apiKey: KEY, baseUrl: closed.origin }).generate(request()));
    expect(neverSent(refused)).toBe(true);
    expect(beforeAcceptance('bfl', refused).kind).toBe('retry');
  });

  it('reports a submit sent and never answered as an unknown outcome, never sent again', async () => {
    api.server.respondWith((_sent, response) => api.server.stall(response));
    const error = await rejectionOf(resilient({ timeoutMs: 200 }).generate(request()));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(submits()).toBe(1);
  });
});

describe('BFL and the call journal', () => {
  /** A journal saved through setters, as the durable journal saves it; each write noted with the requests seen by then. */
  function persisted(initial: CallJournal = {}) {
    let job = initial.job;
    const writes: string[] = [];
    const journal: CallJournal = {
      get job() {
        return job;
      },
      set job(value: AcceptedJob | undefined) {
        job = value === undefined ? undefined : structuredClone(value);
        writes.push(`job after ${api.server.requests.length}`);
      },
      get output() {
        return undefined;
      },
      set output(_value) {
        writes.push('output');
      },
    };
    return { journal, writes };
  }

  it('journals the task id and its polling_url the moment BFL accepts it, and never the short-lived sample', async () => {
    const { journal, writes } = persisted();
    await provider().generate(request(), { journal });
    expect(writes).toEqual(['job after 1']);
    expect(journal.job).toEqual({ id: expect.any(String), urls: { polling: expect.stringMatching(/\/eu2\/v1\/get_result\?id=/) } });
  });

  it('resumes a task whose poll was lost, in a new adapter after a restart, from the stored journal alone', async () => {
    const tasks = bflFlow(api.images);
    let lost = false;
    // The first poll never comes back: the worker dies waiting for it.
    api.server.respondWith((sent, response, server) => {
      if (lost || !sent.path.includes('/get_result')) return tasks(sent, response, server);
      lost = true;
      api.server.stall(response);
    });
    const first = persisted();
    const controller = new AbortController();
    const inFlight = provider().generate(request(), { journal: first.journal, signal: controller.signal });
    await expect.poll(() => paths()).toContain('GET /eu2/v1/get_result?id=ID');
    controller.abort(new Error('the worker died'));
    expect(String(await rejectionOf(inFlight))).toContain('the worker died');
    // What the database kept, read back by a new process with a new adapter.
    const stored = JSON.parse(JSON.stringify({ job: first.journal.job })) as CallJournal;
    const seen = api.server.requests.length;
    const image = await provider().generate(request(), { journal: persisted(stored).journal });
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    expect(paths().slice(seen)[0]).toBe('GET /eu2/v1/get_result?id=ID');
    expect([submits(), tasks.tasks()]).toEqual([1, 1]);
  });
});
