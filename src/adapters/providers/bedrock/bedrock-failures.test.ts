import net from 'node:net';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withResilience } from '../resilience/resilient-provider.js';
import { beforeAcceptance } from '../failure-policy.js';
import {
  ProviderAccountProblem,
  ProviderOutcomeUnknown,
  ProviderRefusal,
  ProviderUnavailable,
  type ImageProvider,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import { parametersFrom } from '../../../providers.js';
import { rejectionOf } from '../../../test-support/loopback-server.js';
import { bedrockModels } from './bedrock-models.js';
import { createBedrockProvider, type BedrockOptions } from './bedrock-provider.js';
import { BEDROCK_FAKE_REGION, bedrockSuccess, startBedrockFake, type BedrockFake, type BedrockReply } from './bedrock.fake.js';
import { sampleImages } from '../../../test-support/fake-images.js';

/*
 * Each way Bedrock (or the road to it) fails, mapped to the port's errors and run behind the resilience layer, which
 * alone retries: the SDK's own retries are off. Error answers are Bedrock's: the type in `x-amzn-errortype`,
 * `{ message }`, the status of the client's schemas (bedrock-errors.ts cites them).
 */

const SECRET = 'fake-secret-MUST-NOT-LEAK-41aa';
const CORE = 'stability.stable-image-core-v1:1';

let fake: BedrockFake;
beforeAll(async () => {
  fake = await startBedrockFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const provider = (options: Partial<BedrockOptions> = {}) =>
  createBedrockProvider(
    { region: BEDROCK_FAKE_REGION, endpoint: fake.origin, credentials: { accessKeyId: 'AKIDFAKEBEDROCK', secretAccessKey: SECRET }, ...options },
    parametersFrom(bedrockModels),
  );
const request = (providerModel = CORE): ProviderRequest => ({ providerModel, prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 7 });

/** Answers each request in turn with the next of `answers`, then with success. */
async function answers(...steps: ((reply: BedrockReply) => void)[]): Promise<void> {
  const success = bedrockSuccess(await sampleImages());
  let next = 0;
  fake.respondWith((call, reply) => {
    const step = steps[next];
    next += 1;
    return step === undefined ? success(call, reply) : step(reply);
  });
}

/** The adapter behind the resilience layer, recording the waits it asks for instead of waiting. */
function resilient(adapter: ImageProvider = provider(), timeoutMs = 5_000): { provider: ImageProvider; waits: number[] } {
  const waits: number[] = [];
  const wrapped = withResilience(adapter, {
    timeoutMs,
    retries: 2,
    baseDelayMs: 100,
    maxDelayMs: 400,
    maxConcurrent: 4,
    breakerThreshold: 5,
    breakerCooldownMs: 30_000,
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
  });
  return { provider: wrapped, waits };
}

describe('Bedrock refusals', () => {
  it('refuses an image its Stability model filtered (finish_reasons "Filter reason: ..."), never sent again', async () => {
    await answers((reply) => reply.json(200, { seeds: [7], finish_reasons: ['Filter reason: prompt'], images: [] }));
    const error = await rejectionOf(resilient().provider.generate(request()));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Filter reason: prompt');
    expect(fake.calls).toHaveLength(1);
  });

  it("refuses a request Bedrock's content filters blocked (ValidationException), never sent again", async () => {
    await answers((reply) => reply.error(400, 'ValidationException', 'This request has been blocked by our content filters.'));
    const error = await rejectionOf(resilient().provider.generate(request()));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('blocked by our content filters');
    expect(fake.calls).toHaveLength(1);
  });

  it("refuses a body Bedrock's validation rejects, quoting it", async () => {
    await answers((reply) => reply.error(400, 'ValidationException', 'Malformed input request: #/seed: expected maximum: 4294967294'));
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Amazon Bedrock answered 400 ValidationException: Malformed input request: #/seed');
  });
});

describe('Bedrock busy or down', () => {
  it("waits out a ThrottlingException's Retry-After, then succeeds", async () => {
    await answers((reply) => reply.error(429, 'ThrottlingException', 'Too many requests, please wait before trying again.', { 'retry-after': '2' }));
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 2000 });
    fake.reset();
    await answers((reply) => reply.error(429, 'ThrottlingException', 'Too many requests, please wait before trying again.', { 'retry-after': '2' }));
    const { provider: wrapped, waits } = resilient();
    expect((await wrapped.generate(request())).seed).toBe(7);
    expect([fake.calls.length, waits]).toEqual([2, [2000]]);
  });

  it('backs off by its own schedule when a ThrottlingException names no Retry-After', async () => {
    await answers((reply) => reply.error(429, 'ThrottlingException', 'Too many tokens, please wait before trying again.'));
    const { provider: wrapped, waits } = resilient();
    await wrapped.generate(request());
    // The first backoff: baseDelayMs x random() = 100 x 0.5.
    expect([fake.calls.length, waits]).toEqual([2, [50]]);
  });

  it.each([
    [503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.'],
    [500, 'InternalServerException', 'The server encountered an error processing your request.'],
    [429, 'ModelNotReadyException', 'The model is not ready to serve inference requests.'],
  ])('retries a %i %s, which made nothing', async (status, type, message) => {
    await answers((reply) => reply.error(status, type, message));
    const { provider: wrapped } = resilient();
    await wrapped.generate(request());
    expect(fake.calls).toHaveLength(2);
  });

  it('retries a connection refused before anything was sent (HTTP/2 and HTTP/1.1 handlers alike)', async () => {
    const closed = await freePort();
    for (const options of [{}, { requestHandler: new NodeHttpHandler() }]) {
      const error = await rejectionOf(provider({ endpoint: `http://127.0.0.1:${closed}`, ...options }).generate(request()));
      expect(error).toBeInstanceOf(ProviderUnavailable);
      expect(String(error)).toMatch(/could not be reached \(.*ECONNREFUSED.*\); nothing was sent/);
      expect(beforeAcceptance('bedrock', error)).toMatchObject({ kind: 'retry', providerFault: true });
    }
  });
});

describe('Bedrock outcomes unknown: sent once, never again', () => {
  it('reports an answer lost after sending (the connection dropped) as an unknown outcome', async () => {
    await answers((reply) => reply.drop());
    const error = await rejectionOf(resilient().provider.generate(request()));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(fake.calls).toHaveLength(1);
  });

  it('reports a request still unanswered at the deadline as an unknown outcome that timed out', async () => {
    await answers((reply) => reply.stall());
    const error = await rejectionOf(resilient(provider(), 300).provider.generate(request()));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: true });
    expect(fake.calls).toHaveLength(1);
  });

  it('fails a ModelErrorException (the model ran and failed) without sending it again', async () => {
    await answers((reply) => reply.error(424, 'ModelErrorException', 'The model returned an error.'));
    const error = await rejectionOf(resilient().provider.generate(request()));
    expect([error instanceof ProviderRefusal, error instanceof ProviderUnavailable, String(error)]).toEqual([
      false,
      false,
      'Error: Amazon Bedrock answered 424 ModelErrorException: The model returned an error. (not sent again)',
    ]);
    expect(fake.calls).toHaveLength(1);
  });

  it('treats a ModelTimeoutException as an unknown outcome: the model ran, and may be billed', async () => {
    await answers((reply) => reply.error(408, 'ModelTimeoutException', 'Model has timed out in processing the request.'));
    const error = await rejectionOf(resilient().provider.generate(request()));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(fake.calls).toHaveLength(1);
  });
});

describe("the operator's problem", () => {
  it.each([
    [
      403,
      'AccessDeniedException',
      "You don't have access to the model with the specified model ID.",
      'enable access to stability.stable-image-core-v1:1 in the Amazon Bedrock console, Model access, for region us-west-2',
    ],
    [404, 'ResourceNotFoundException', 'Model not found.', 'check that stability.stable-image-core-v1:1 is offered in us-west-2'],
    [400, 'ValidationException', 'The provided model identifier is invalid.', 'cannot be called in us-west-2'],
    [403, 'UnrecognizedClientException', 'The security token included in the request is invalid.', 'check the AWS credentials'],
    [400, 'ServiceQuotaExceededException', 'Your request exceeds the service quota for your account.', 'raise it in Service Quotas'],
  ])('reports %i %s as the operator to fix, never retried', async (status, type, message, hint) => {
    await answers((reply) => reply.error(status, type, message));
    const error = await rejectionOf(resilient().provider.generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain(hint);
    expect(String(error)).not.toContain(SECRET);
    expect(fake.calls).toHaveLength(1);
  });

  it('is refused by the fake as by AWS when the signature names another region', async () => {
    const error = await rejectionOf(provider({ region: 'eu-west-1' }).generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('InvalidSignatureException');
  });

  it('says so when there are no credentials, before sending anything', async () => {
    const missing = Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
    const error = await rejectionOf(provider({ credentials: () => Promise.reject(missing) }).generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
    expect(fake.calls).toEqual([]);
  });
});

describe('Bedrock credentials check', () => {
  it('lists async invocations (read-only, free), signed, generating nothing', async () => {
    expect(await provider().check?.()).toEqual({
      ok: true,
      endpoint: 'GET /async-invoke',
      detail: 'answered 200 in us-west-2 (model access is checked only by generating)',
    });
    expect(fake.calls.map((call) => [call.method, call.path, String(call.headers.authorization).slice(0, 16)])).toEqual([
      ['GET', '/async-invoke?maxResults=1', 'AWS4-HMAC-SHA256'],
    ]);
  });

  it('counts an AccessDeniedException as good credentials (AWS authenticates first), and a refused key as a failure', async () => {
    await answers((reply) => reply.error(403, 'AccessDeniedException', 'User is not authorized to perform: bedrock:ListAsyncInvokes'));
    expect(await provider().check?.()).toMatchObject({ ok: true, detail: expect.stringContaining('AccessDeniedException') });
    await answers((reply) => reply.error(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.'));
    const check = await provider().check?.();
    expect(check).toMatchObject({ ok: false, detail: expect.stringContaining('check the AWS credentials') });
    expect(JSON.stringify(check)).not.toContain(SECRET);
  });
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
