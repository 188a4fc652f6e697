import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpCollector, SPAN_KIND, type CollectedSpan, type OtlpCollector } from '../../src/test-support/otlp-collector.js';
import { freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { startS3Server, type S3TestServer } from '../../src/test-support/s3-server.js';
import { skipWithout } from '../../src/test-support/services.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../src/test-support/webhook-receiver.js';
import { adminQuery, deploymentEnv, dropDeployment } from './deployment.js';
import { startCliProcess, startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

/**
 * Traces of the deployment docs/deployment.md describes, for real: an API process (`serve --no-workers`) and a `worker`
 * on PostgreSQL, Redis (BullMQ) and S3, both exporting to one loopback OTLP collector. Each process also records
 * the modules it loads (record-modules.mjs), which tells whether the OpenTelemetry SDK was ever loaded.
 */
const RECORDER = path.join(import.meta.dirname, 'record-modules.mjs');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const BUCKET = 'imagegate';

const recording = (): { file: string; env: Record<string, string> } => {
  const file = path.join(tempDataDir(), 'modules.txt');
  return { file, env: { NODE_OPTIONS: `--import=${RECORDER}`, RECORD_MODULES_FILE: file } };
};
const loaded = (file: string): string[] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
/** The OpenTelemetry SDK, its exporters and what only they use; the API alone is expected (the no-op tracer). */
const SDK_MODULE = /@opentelemetry[\\/](sdk-|exporter-|otlp-|resources|context-async-hooks|core|semantic-conventions)/;

const newTraceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
};

/** The JSON log lines a process wrote (pino, one object a line). */
const logLines = (server: ServerProcess): Record<string, unknown>[] =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const call = (server: ServerProcess, method: string, url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const skip = await skipWithout('postgres', 'redis');

describe.skipIf(skip)('traces across an API process and a worker on PostgreSQL, Redis and S3', () => {
  const database = `imagegate_e2e_trace_${process.pid}_${randomBytes(3).toString('hex')}`;
  const prefix = freshRedisPrefix('e2e-trace');
  let s3: S3TestServer;
  let receiver: WebhookReceiver;
  let collector: OtlpCollector;
  let api: ServerProcess;
  let worker: ServerProcess;
  const modules = { api: recording(), worker: recording() };

  beforeAll(async () => {
    await adminQuery(`create database "${database}"`);
    s3 = await startS3Server({ buckets: [BUCKET] });
    receiver = await startWebhookReceiver();
    collector = await startOtlpCollector();
    const env = {
      ...deploymentEnv({ database, redisPrefix: prefix, s3, bucket: BUCKET, adminKey: ADMIN }),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      // Export within a tenth of a second rather than the default five.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    api = await startServerProcess({ ...env, ...modules.api.env }, ['--no-workers']);
    worker = await startCliProcess(['worker'], { ...env, ...modules.worker.env }, 'imagegate worker started');
  }, 90_000);

  afterAll(async () => {
    await Promise.all([api, worker].map((process_) => process_?.stop('SIGKILL')));
    await collector?.close();
    await receiver?.close();
    await s3?.close();
    await dropDeployment(database, prefix);
  }, 60_000);

  it('gives a batch created with a traceparent one trace across both processes, its webhook included, and names it in their logs', async () => {
    const { traceId, parentId, header } = newTraceparent();
    const requestId = `req-e2e-trace-${randomBytes(4).toString('hex')}`;
    const res = await call(
      api,
      'POST',
      '/api/batch/create',
      { name: 'traced', prompts: ['a red fox', 'a blue whale'], width: 256, height: 256, webhook_url: receiver.url },
      { traceparent: header, 'X-Request-Id': requestId },
    );
    expect(res.status).toBe(201);
    const { id: batchId } = (await res.json()) as { id: string };

    const [hook] = await receiver.waitFor(1, 60_000);
    // A job's span is exported when it ends, after the spans inside it: wait for each job's own.
    const trace = await eventually(async () => {
      const spans = collector.spans.filter((span) => span.traceId === traceId);
      return spans.some((span) => span.name === 'webhook.deliver') &&
        spans.filter((span) => span.name === 'process batch-item').length === 2 &&
        spans.filter((span) => span.name === 'blobs.put').length === 6 &&
        spans.filter((span) => span.name === 'process thumbnails').length === 2
        ? spans
        : undefined;
    }, 30_000);
    const pidOf = (span: CollectedSpan) => span.resource['process.pid'];
    const named = (name: string) => trace.filter((span) => span.name === name);

    // The request, from the API process, continues the caller's span.
    const [request] = named('POST /api/batch/create');
    expect(request).toMatchObject({ kind: SPAN_KIND.server, parentSpanId: parentId });
    expect(request?.resource).toMatchObject({ 'service.name': 'imagegate', 'process.pid': api.child.pid });
    // The jobs, the provider calls and the stored images, from the worker, in the same trace.
    // Two prompts; each stored image is three puts (the image, then its two thumbnails in a job of their own).
    for (const [name, count] of [
      ['process batch-item', 2],
      ['batch.item', 2],
      ['provider.generate', 2],
      ['process thumbnails', 2],
      ['blobs.put', 6],
    ] as const) {
      expect(named(name), name).toHaveLength(count);
      for (const span of named(name)) expect(pidOf(span), name).toBe(worker.child.pid);
    }
    for (const call of named('provider.generate'))
      expect(call.attributes).toMatchObject({ 'imagegate.model': 'local/procedural', 'imagegate.provider': 'local' });
    // Every job span of every kind belongs to this trace: none started a trace of its own.
    expect(new Set(collector.spans.filter((span) => span.kind === SPAN_KIND.consumer).map((span) => span.traceId))).toEqual(new Set([traceId]));

    const [delivery] = named('webhook.deliver');
    expect(pidOf(delivery as CollectedSpan)).toBe(worker.child.pid);
    expect(hook?.headers.traceparent).toBe(`00-${traceId}-${delivery?.spanId}-01`);

    // Every log line of the request names the trace, and so does every line of the worker about this batch.
    const apiLines = logLines(api).filter((line) => line.requestId === requestId);
    expect(apiLines.map((line) => line.msg)).toEqual(expect.arrayContaining(['batch accepted', 'request']));
    for (const line of apiLines) expect(line.traceId, String(line.msg)).toBe(traceId);
    const batchLines = () => logLines(worker).filter((line) => line.batchId === batchId || String(line.requestId).startsWith(`${batchId}#`));
    // The worker logs a webhook attempt once the receiver has answered, a moment after the receiver saw the request.
    const workerLines = await eventually(async () => {
      const lines = batchLines();
      return lines.some((line) => line.msg === 'webhook attempt') ? lines : undefined;
    });
    expect(workerLines.map((line) => line.msg)).toEqual(expect.arrayContaining(['image generated', 'batch completed', 'webhook attempt']));
    for (const line of workerLines) expect(line.traceId, String(line.msg)).toBe(traceId);

    // Positive control for the test below: with an endpoint, the SDK is loaded.
    expect(loaded(modules.api.file).some((url) => url.includes('@opentelemetry/sdk-trace-node'))).toBe(true);
  }, 120_000);
});

describe('without OTEL settings', () => {
  let receiver: WebhookReceiver;
  let server: ServerProcess | undefined;
  const modules = recording();

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await receiver?.close();
  });

  it('loads no OpenTelemetry SDK, names no trace in the logs and sends no traceparent, even when the caller sent one', async () => {
    // Other OTEL_* settings without an endpoint turn nothing on.
    server = await startServerProcess({
      DATA_DIR: tempDataDir(),
      ADMIN_API_KEY: ADMIN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      OTEL_SERVICE_NAME: 'imagegate',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      ...modules.env,
    });
    const { header } = newTraceparent();
    const generated = await call(server, 'POST', '/api/generate', { prompt: 'a lighthouse at dusk', width: 64, height: 64 }, { traceparent: header });
    expect(generated.status).toBe(201);
    const batch = await call(
      server,
      'POST',
      '/api/batch/create',
      { name: 'untraced', prompts: ['a quiet pond'], width: 64, height: 64, webhook_url: receiver.url },
      { traceparent: header },
    );
    expect(batch.status).toBe(201);
    const [hook] = await receiver.waitFor(1, 30_000);
    expect(await server.stop('SIGTERM')).toBe(0);

    expect(hook?.headers.traceparent).toBeUndefined();
    const lines = logLines(server);
    expect(lines.some((line) => line.msg === 'request')).toBe(true);
    expect(lines.filter((line) => 'traceId' in line)).toEqual([]);
    const urls = loaded(modules.file);
    // The recorder saw the service's own modules (it works) and the API (the no-op tracer), but nothing of the SDK.
    expect(urls.some((url) => url.includes('src/adapters/tracing/start-tracing.ts'))).toBe(true);
    expect(urls.some((url) => url.includes('@opentelemetry/api'))).toBe(true);
    expect(urls.filter((url) => SDK_MODULE.test(url))).toEqual([]);
  }, 60_000);
});
