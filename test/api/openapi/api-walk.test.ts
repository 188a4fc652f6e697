import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { createKeyFor } from '../keys/key-helpers.js';
import { photoPng } from '../../support/sample-images.js';
import excerpt from './openai-excerpt.json' with { type: 'json' };
import { expectDeclared, operationKeys, responseValidator, type Answer, type Document } from './walk.js';

/**
 * A walk of the whole API, every operation of /openapi.json: with a good key and a valid request, a wrong key, a
 * read-only key, unknown ids and a bad body. Every answer's status must be declared for its operation and its JSON
 * body must match the declared schema, so the document cannot drift from the server again.
 */
let h: Harness;
let doc: Document;
let readOnly: string;
const ids: Record<string, string> = {};
let png: Uint8Array<ArrayBuffer>;

type Body = { json: unknown; lazy?: () => unknown } | { form: () => FormData } | undefined;
interface Call {
  /** The path with its ids filled in. */
  path: () => string;
  body?: Body;
  /** Made last: they remove what the others read. */
  removes?: boolean;
}

const file = (field: string) => (form: FormData) => form.append(field, new Blob([png], { type: 'image/png' }), `${field}.png`);
const formOf =
  (...parts: ((form: FormData) => void)[]) =>
  () => {
    const form = new FormData();
    for (const part of parts) part(form);
    return form;
  };
const text = (name: string, value: string) => (form: FormData) => form.append(name, value);

/** A valid request for each operation; the test fails when the document has an operation this does not name. */
const CALLS: Record<string, Call> = {
  'POST /api/generate': { path: () => '/api/generate', body: { json: { prompt: 'a lighthouse at dusk', width: 64, height: 64 } } },
  'GET /api/generations': { path: () => '/api/generations' },
  'GET /api/generations/{id}': { path: () => `/api/generations/${ids.generation}` },
  'GET /api/generations/{id}/events': { path: () => `/api/generations/${ids.generation}/events` },
  'POST /api/generations/{id}/cancel': { path: () => `/api/generations/${ids.queuedGeneration}/cancel` },
  'GET /api/images': { path: () => '/api/images' },
  'GET /api/images/{id}': { path: () => `/api/images/${ids.image}` },
  'DELETE /api/images/{id}': { path: () => `/api/images/${ids.doomedImage}`, removes: true },
  'POST /api/uploads': { path: () => '/api/uploads', body: { form: formOf(file('file')) } },
  'GET /api/collections': { path: () => '/api/collections' },
  'POST /api/collections': { path: () => '/api/collections', body: { json: { name: 'walked' } } },
  'GET /api/collections/{id}': { path: () => `/api/collections/${ids.collection}` },
  'DELETE /api/collections/{id}': { path: () => `/api/collections/${ids.doomedCollection}`, removes: true },
  'GET /api/collections/{id}/images': { path: () => `/api/collections/${ids.collection}/images` },
  'POST /api/collections/{id}/images': {
    path: () => `/api/collections/${ids.collection}/images`,
    body: { json: undefined, lazy: () => ({ image_id: ids.image }) },
  },
  'DELETE /api/collections/{id}/images/{image_id}': { path: () => `/api/collections/${ids.collection}/images/${ids.image}`, removes: true },
  'GET /api/models': { path: () => '/api/models' },
  'GET /api/models/{id}': { path: () => '/api/models/local/procedural' },
  'GET /api/templates': { path: () => '/api/templates' },
  'POST /api/templates': { path: () => '/api/templates', body: { json: { name: 'walk', model: 'local/procedural', default_prompt: 'a quiet lake' } } },
  'GET /api/templates/{id}': { path: () => `/api/templates/${ids.template}` },
  'PUT /api/templates/{id}': { path: () => `/api/templates/${ids.template}`, body: { json: { name: 'walked' } } },
  'DELETE /api/templates/{id}': { path: () => `/api/templates/${ids.template}`, removes: true },
  'GET /api/analytics/usage': { path: () => '/api/analytics/usage' },
  'GET /api/analytics/costs': { path: () => '/api/analytics/costs' },
  'GET /api/analytics/charges': { path: () => '/api/analytics/charges' },
  'POST /api/batch/create': { path: () => '/api/batch/create', body: { json: { name: 'walk', prompts: ['a quiet lake'] } } },
  'POST /api/batch/generate': { path: () => '/api/batch/generate', body: { json: { prompts: ['a quiet lake'] } } },
  'GET /api/batch': { path: () => '/api/batch' },
  'GET /api/batch/{id}': { path: () => `/api/batch/${ids.batch}` },
  'POST /api/batch/{id}/cancel': { path: () => `/api/batch/${ids.batch}/cancel`, removes: true },
  'GET /api/webhooks/secret': { path: () => '/api/webhooks/secret' },
  'GET /api/me': { path: () => '/api/me' },
  'POST /v1/images/generations': { path: () => '/v1/images/generations', body: { json: { prompt: 'a lighthouse at dusk', size: '64x64' } } },
  'POST /v1/images/edits': { path: () => '/v1/images/edits', body: { form: formOf(file('image'), text('prompt', 'a red boat'), text('size', '64x64')) } },
  'POST /v1/images/variations': {
    path: () => '/v1/images/variations',
    body: { form: formOf(file('image'), text('size', '64x64'), text('response_format', 'url')) },
  },
  'GET /v1/models': { path: () => '/v1/models' },
  'GET /v1/models/{id}': { path: () => '/v1/models/local/procedural' },
  'POST /api/keys': { path: () => '/api/keys', body: { json: { name: 'walked', permissions: ['read'] } } },
  'GET /api/keys': { path: () => '/api/keys' },
  'PATCH /api/keys/{id}': { path: () => `/api/keys/${ids.key}`, body: { json: { name: 'renamed' } } },
  'DELETE /api/keys/{id}': { path: () => `/api/keys/${ids.key}`, removes: true },
  'GET /health': { path: () => '/health' },
  'GET /health/live': { path: () => '/health/live' },
  'GET /health/ready': { path: () => '/health/ready' },
  'GET /app/config.json': { path: () => '/app/config.json' },
};

/** The same call with every id replaced by one that does not exist. */
const unknownIds = (path: string): string =>
  path.replace(/(img|coll|tmpl|batch|key|gen)_[\w-]+/g, '$1_00000000000000000000000000').replace('local/procedural', 'nobody/nothing');

async function send(operation: string, path: string, key: string | undefined, body: Body): Promise<Answer> {
  const [method = 'GET'] = operation.split(' ');
  const headers: Record<string, string> = key === undefined ? {} : { Authorization: `Bearer ${key}` };
  let payload: BodyInit | undefined;
  if (body !== undefined && 'json' in body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.lazy === undefined ? body.json : body.lazy());
  } else if (body !== undefined) payload = body.form();
  const res = await h.app.request(path, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
  const contentType = res.headers.get('content-type') ?? '';
  const raw = await res.text();
  return {
    operation,
    sent: `${method} ${path} (${key === TEST_KEY ? 'admin key' : key === undefined ? 'no key' : 'another key'})`,
    status: res.status,
    contentType,
    body: contentType.includes('json') ? JSON.parse(raw) : raw,
  };
}

beforeAll(async () => {
  h = await createHarness({ workers: false });
  png = new Uint8Array(await photoPng(64, 64));
  doc = await json<Document>(await h.app.request('/openapi.json'));
  const made = async (path: string, body: unknown) => json<{ id: string }>(await h.call('POST', path, body));
  ids.image = (await made('/api/generate', { prompt: 'a lighthouse at dusk', width: 64, height: 64 })).id;
  ids.doomedImage = (await made('/api/generate', { prompt: 'a lighthouse at noon', width: 64, height: 64 })).id;
  ids.generation = (await json<{ generations: { id: string }[] }>(await h.call('GET', '/api/generations?limit=1'))).generations[0]?.id ?? '';
  // A generation still queued, as one accepted while no worker runs: what a cancel acts on.
  ids.queuedGeneration = 'gen_walkqueued00000000000000';
  await h.deps.db.generations.insert({
    id: ids.queuedGeneration,
    user_id: 'admin',
    key_id: null,
    status: 'queued',
    model: 'local/procedural',
    prompt: 'a quiet lake',
    request: { prompt: 'a quiet lake', model: 'local/procedural' },
    image_id: 'img_walkqueued00000000000000',
    error: null,
    progress: null,
    created_at: new Date().toISOString(),
    started_at: null,
    finished_at: null,
    cancel_requested_at: null,
    webhook_url: null,
    webhook_events: null,
    deadline_at: null,
    batch_id: null,
    batch_idx: null,
  });
  ids.collection = (await made('/api/collections', { name: 'kept' })).id;
  ids.doomedCollection = (await made('/api/collections', { name: 'doomed' })).id;
  await h.call('POST', `/api/collections/${ids.collection}/images`, { image_id: ids.image });
  ids.template = (await made('/api/templates', { name: 'walk', model: 'local/procedural', default_prompt: 'a quiet lake' })).id;
  ids.batch = (await made('/api/batch/create', { name: 'walk', prompts: ['a quiet lake', 'a calm sea'] })).id;
  ids.key = (await createKeyFor(h, { name: 'doomed', permissions: ['read'] })).id;
  readOnly = (await createKeyFor(h, { name: 'reader', permissions: ['read'] })).key;
}, 60_000);

afterAll(async () => {
  await h.close();
});

/**
 * OpenAI's shapes (openai-excerpt.json) with imagegate's one documented addition: `auto` for `quality` and
 * `background` where the model decided and imagegate cannot know what it chose (docs/openai-compatible-api.md).
 */
function openAiShapes(): Document {
  const copy = structuredClone(excerpt) as unknown as Document & {
    components: { schemas: { ImagesResponse: { properties: Record<string, { enum: string[] }> } } };
  };
  for (const field of ['quality', 'background']) copy.components.schemas.ImagesResponse.properties[field]?.enum.push('auto');
  return copy;
}

/** The schema of OpenAI's own document an answer of /v1 must match, where OpenAI has the operation. */
function openAiSchemaOf(answer: Answer): string | undefined {
  if (!answer.operation.includes(' /v1/')) return undefined;
  if (answer.status >= 400) return answer.contentType.includes('json') ? 'ErrorResponse' : undefined;
  if (answer.operation.startsWith('POST /v1/images/')) return 'ImagesResponse';
  return answer.operation === 'GET /v1/models' ? 'ListModelsResponse' : 'Model';
}

describe('a walk of every operation of /openapi.json', () => {
  it('has a valid request for every operation the document declares, and for no other', () => {
    expect(Object.keys(CALLS).sort()).toEqual(operationKeys(doc).sort());
  });

  it('answers only statuses the document declares, with bodies that match their schemas', async () => {
    const validator = responseValidator(doc, 'imagegate');
    const openAi = responseValidator(openAiShapes(), 'openai');
    const ordered = Object.entries(CALLS).sort(([, a], [, b]) => Number(a.removes === true) - Number(b.removes === true));
    const seen = new Set<string>();
    for (const [operation, call] of ordered) {
      const path = call.path();
      const guarded = path.startsWith('/api/') || path.startsWith('/v1/');
      const answers: Answer[] = [];
      if (guarded) {
        answers.push(await send(operation, path, 'igk_live_wrong', call.body));
        answers.push(await send(operation, path, readOnly, call.body));
        if (unknownIds(path) !== path) answers.push(await send(operation, unknownIds(path), TEST_KEY, call.body));
        if (call.body !== undefined)
          answers.push(await send(operation, path, TEST_KEY, 'json' in call.body ? { json: { not_a_field: [1] } } : { form: formOf(text('n', 'eleven')) }));
      }
      answers.push(await send(operation, path, TEST_KEY, call.body));
      for (const answer of answers) {
        expectDeclared(doc, validator, answer);
        const shape = openAiSchemaOf(answer);
        if (shape !== undefined) {
          const validate = openAi({ $ref: `#/components/schemas/${shape}` });
          expect(
            validate(answer.body),
            `${answer.sent} answered ${answer.status}, not OpenAI's ${shape}: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
          ).toBe(true);
        }
        seen.add(`${answer.operation} ${answer.status}`);
      }
      const good = answers.at(-1);
      expect(good?.status, `${good?.sent}: ${JSON.stringify(good?.body).slice(0, 300)}`).toBeLessThan(300);
    }
    // The walk reached the answers it is about: a success, 401, 403 and 404 somewhere.
    for (const status of [200, 201, 400, 401, 403, 404])
      expect(
        [...seen].some((entry) => entry.endsWith(` ${status}`)),
        `no ${status} seen`,
      ).toBe(true);
  }, 120_000);
});
