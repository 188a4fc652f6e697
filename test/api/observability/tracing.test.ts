import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StartupError } from '../../../src/adapters/process/startup-error.js';
import { otlpProtocol, startTracing, tracingWanted, type Tracing } from '../../../src/adapters/tracing/start-tracing.js';
import { VERSION } from '../../../src/runtimes/node/version.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { SPAN_KIND, startOtlpCollector, type CollectedSpan, type OtlpCollector } from '../../../src/test-support/otlp-collector.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../src/test-support/webhook-receiver.js';
import { file, form, photoPng } from '../inputs/images.js';

/**
 * Traces, in process, through the real SDK and OTLP exporters to a loopback collector. The SDK is global to the
 * process, so each test starts it and shuts it down (which exports what is buffered) before reading the collector.
 * In the scale-out run the same tests cross PostgreSQL, BullMQ on Redis and S3.
 */
let collector: OtlpCollector;
let receiver: WebhookReceiver;
let h: Harness | undefined;
let tracing: Tracing | undefined;

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
const small = { model: 'local/procedural', width: 64, height: 64 };

beforeEach(async () => {
  collector = await startOtlpCollector();
  receiver = await startWebhookReceiver();
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', collector.url);
});
afterEach(async () => {
  await tracing?.shutdown();
  tracing = undefined;
  await h?.close();
  h = undefined;
  vi.unstubAllEnvs();
  await receiver.close();
  await collector.close();
});

const newTraceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
};

/** Runs everything queued, then exports what the SDK buffered: after this the collector has every span. */
async function flush(): Promise<void> {
  await h?.deps.queue.drain();
  await tracing?.shutdown();
  tracing = undefined;
}

const named = (spans: readonly CollectedSpan[], name: string): CollectedSpan[] => spans.filter((span) => span.name === name);
function only(spans: readonly CollectedSpan[], name: string): CollectedSpan {
  const found = named(spans, name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as CollectedSpan;
}

describe('OpenTelemetry traces', () => {
  it('are on only with an OTLP endpoint, and off again with the standard switches', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('speak http/protobuf unless told http/json, and refuse gRPC naming the setting', () => {
    expect(otlpProtocol({})).toBe('http/protobuf');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
    expect(() => otlpProtocol({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toThrow(StartupError);
    expect(() => otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported/);
  });

  it('without an endpoint start nothing: no span is exported and no traceparent reaches a webhook', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
    tracing = await startTracing({ logger: silent, version: VERSION });
    expect(tracing).toBeUndefined();
    h = await createHarness();
    h.clock.set(new Date().toISOString());
    const { header } = newTraceparent();
    const res = await h.call(
      'POST',
      '/api/batch/create',
      { name: 'traced', prompts: ['a quiet pond'], ...small, webhook_url: receiver.url },
      { traceparent: header },
    );
    expect(res.status).toBe(201);
    const [hook] = await receiver.waitFor(1);
    await flush();
    expect(hook?.headers.traceparent).toBeUndefined();
    expect(collector.contentTypes).toEqual([]);
  });

  it("export a request, its verb, the provider call and the stored object over http/protobuf, continuing the caller's traceparent", async () => {
    tracing = await startTracing({ logger: silent, version: VERSION });
    expect(tracing?.protocol).toBe('http/protobuf');
    h = await createHarness();
    const { traceId, parentId, header } = newTraceparent();
    const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', ...small }, { traceparent: header, 'X-Request-Id': 'req-traced-1' });
    expect(res.status).toBe(201);
    const image = await json<{ id: string; r2_key: string }>(res);
    await flush();

    expect(new Set(collector.contentTypes)).toEqual(new Set(['application/x-protobuf']));
    const trace = collector.spans.filter((span) => span.traceId === traceId);
    const request = only(trace, 'POST /api/generate');
    expect(request).toMatchObject({ kind: SPAN_KIND.server, parentSpanId: parentId, scope: 'imagegate' });
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/generate',
      'url.path': '/api/generate',
      'http.response.status_code': 201,
      'imagegate.request_id': 'req-traced-1',
    });
    expect(request.resource).toMatchObject({ 'service.name': 'imagegate', 'process.pid': process.pid });
    // The generation is a job: queued under the request, run under the job's consumer span, in the same trace.
    const send = only(trace, 'send generation');
    expect(send).toMatchObject({ kind: SPAN_KIND.producer, parentSpanId: request.spanId });
    const consume = only(trace, 'process generation');
    expect(consume).toMatchObject({ kind: SPAN_KIND.consumer, parentSpanId: send.spanId });
    const verb = only(trace, 'generation.run');
    expect(verb.parentSpanId).toBe(consume.spanId);
    const call = only(trace, 'provider.generate');
    expect(call).toMatchObject({ kind: SPAN_KIND.client, parentSpanId: verb.spanId });
    expect(call.attributes).toMatchObject({ 'imagegate.model': 'local/procedural', 'imagegate.provider': 'local', 'imagegate.image.id': image.id });
    // The image is put under the verb; its two thumbnails under a job of their own, in the same trace.
    const puts = named(trace, 'blobs.put');
    expect(puts).toHaveLength(3);
    for (const put of puts) expect(put).toMatchObject({ kind: SPAN_KIND.client });
    const underVerb = puts.filter((put) => put.parentSpanId === verb.spanId);
    expect(underVerb.map((put) => put.attributes)).toEqual([
      expect.objectContaining({ 'imagegate.blob.key': image.r2_key, 'imagegate.blob.content_type': 'image/png' }),
    ]);
    const thumbnailsJob = only(trace, 'process thumbnails');
    expect(puts.filter((put) => put.parentSpanId === thumbnailsJob.spanId)).toHaveLength(2);
  });

  it('export over http/json when OTEL_EXPORTER_OTLP_PROTOCOL says so; a request without traceparent starts its own trace', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
    vi.stubEnv('OTEL_SERVICE_NAME', 'imagegate-edge');
    tracing = await startTracing({ logger: silent, version: VERSION });
    expect(tracing?.protocol).toBe('http/json');
    h = await createHarness();
    const res = await h.call('POST', '/api/uploads', form({ file: file(await photoPng(32, 24), 'pier.png') }));
    expect(res.status).toBe(201);
    const missing = await h.call('GET', '/api/images/img_missing');
    expect(missing.status).toBe(404);
    expect((await h.call('GET', '/api/models/local/procedural')).status).toBe(200);
    await flush();

    expect(new Set(collector.contentTypes)).toEqual(new Set(['application/json']));
    const request = only(collector.spans, 'POST /api/uploads');
    expect(request.parentSpanId).toBeUndefined();
    expect(request.resource['service.name']).toBe('imagegate-edge');
    const trace = collector.spans.filter((span) => span.traceId === request.traceId);
    const upload = only(trace, 'image.upload');
    expect(upload.parentSpanId).toBe(request.spanId);
    const puts = named(trace, 'blobs.put');
    expect(puts).toHaveLength(3);
    for (const put of puts) expect(put.parentSpanId).toBe(upload.spanId);
    // A 4xx is the caller's: named by its route, status left unset.
    const notFound = only(collector.spans, 'GET /api/images/:id');
    expect(notFound.attributes['http.response.status_code']).toBe(404);
    expect(notFound.status.code).toBe(0);
    expect(notFound.traceId).not.toBe(request.traceId);
    // A route with a pattern is named by its template alone.
    expect(only(collector.spans, 'GET /api/models/:id').attributes['http.route']).toBe('/api/models/:id');
  });

  it("carry a batch's trace through the queue to its jobs, the provider calls and the webhook, whose request has the traceparent", async () => {
    tracing = await startTracing({ logger: silent, version: VERSION });
    h = await createHarness();
    // Receivers reject timestamps more than five minutes from their own clock: sign at the real time.
    h.clock.set(new Date().toISOString());
    const { traceId, parentId, header } = newTraceparent();
    const res = await h.call(
      'POST',
      '/api/batch/create',
      { name: 'traced', prompts: ['a red fox', 'a blue whale'], ...small, webhook_url: receiver.url },
      { traceparent: header },
    );
    expect(res.status).toBe(201);
    const [hook] = await receiver.waitFor(1, 30_000);
    await flush();

    const trace = collector.spans.filter((span) => span.traceId === traceId);
    const request = only(trace, 'POST /api/batch/create');
    expect(request.parentSpanId).toBe(parentId);
    const create = only(trace, 'batch.create');
    expect(create.parentSpanId).toBe(request.spanId);
    // The batch's prompts are queued together: one producer span for both.
    const sends = named(trace, 'send batch-item');
    expect(sends).toHaveLength(1);
    for (const send of sends)
      expect(send).toMatchObject({ kind: SPAN_KIND.producer, parentSpanId: create.spanId, attributes: { 'messaging.batch.message_count': 2 } });
    const processes = named(trace, 'process batch-item');
    expect(processes).toHaveLength(2);
    for (const job of processes) expect(job.kind).toBe(SPAN_KIND.consumer);
    expect(new Set(processes.map((job) => job.parentSpanId))).toEqual(new Set(sends.map((send) => send.spanId)));
    const items = named(trace, 'batch.item');
    expect(new Set(items.map((item) => item.parentSpanId))).toEqual(new Set(processes.map((job) => job.spanId)));
    // Each prompt runs as its generation, the same code as a single one.
    const runs = named(trace, 'generation.run');
    expect(new Set(runs.map((run) => run.parentSpanId))).toEqual(new Set(items.map((item) => item.spanId)));
    const calls = named(trace, 'provider.generate');
    expect(new Set(calls.map((call) => call.parentSpanId))).toEqual(new Set(runs.map((run) => run.spanId)));
    for (const call of calls) expect(call.attributes).toMatchObject({ 'imagegate.model': 'local/procedural', 'imagegate.provider': 'local' });
    expect(named(trace, 'blobs.put')).toHaveLength(6);

    const delivery = only(trace, 'webhook.deliver');
    expect(delivery).toMatchObject({ kind: SPAN_KIND.client, parentSpanId: only(trace, 'process webhook').spanId });
    expect(delivery.attributes['http.response.status_code']).toBe(200);
    expect(hook?.headers.traceparent).toBe(`00-${traceId}-${delivery.spanId}-01`);
  });
});
