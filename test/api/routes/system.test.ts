import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { nodeOnly } from '../../../src/test-support/in-process-only.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('health', () => {
  it('answers 200 { status: "ok" } without a key once the database answers', async () => {
    const res = await h.app.request('/health');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: 'ok' });
  });
});

describe('OpenAPI and docs', () => {
  it('publishes an OpenAPI 3.1 document covering every endpoint', async () => {
    const res = await h.app.request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = await json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(res);
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /api/generate',
        'GET /api/images',
        'GET /api/images/{id}',
        'DELETE /api/images/{id}',
        'GET /api/collections',
        'POST /api/collections',
        'GET /api/collections/{id}',
        'DELETE /api/collections/{id}',
        'GET /api/collections/{id}/images',
        'POST /api/collections/{id}/images',
        'GET /api/models',
        'GET /api/models/{id}',
        'GET /api/templates',
        'POST /api/templates',
        'GET /api/templates/{id}',
        'PUT /api/templates/{id}',
        'DELETE /api/templates/{id}',
        'GET /api/analytics/usage',
        'GET /api/analytics/costs',
        'POST /api/batch/create',
        'POST /api/batch/generate',
        'GET /api/batch',
        'GET /api/batch/{id}',
        'POST /api/batch/{id}/cancel',
        'GET /api/webhooks/secret',
        'GET /api/keys',
        'POST /api/keys',
        'DELETE /api/keys/{id}',
        'PATCH /api/keys/{id}',
      ]),
    );
  });

  nodeOnly.it('serves a reference page whose scripts and styles all come from this server', async () => {
    const res = await h.app.request('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset.startsWith('/')).toBe(true);
      const loaded = await h.app.request(asset);
      expect(loaded.status, asset).toBe(200);
      expect((await loaded.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
  });
});
