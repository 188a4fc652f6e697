import { describe, expect, it } from 'vitest';
import { pollingUrlFor, trustedPollingUrl } from './bfl-request.js';
import { createBflProvider } from './bfl-provider.js';
import { bflModels } from './bfl-models.js';
import { bflFlow } from './bfl.fake.js';
import { parametersFrom } from '../../../providers.js';
import { rejectionOf, sendJson, useLoopbackFake } from '../../../test-support/loopback-server.js';

/*
 * The key follows a `polling_url` only where BFL's API lives: BFL says to poll the URL it answers as given, since it
 * names the region that took the task (help.bfl.ai "Which API endpoint should I use?"), and regions come and go.
 */

const BASE = 'https://api.bfl.ai';

describe('which polling_url the key may follow', () => {
  it.each([
    'https://api.bfl.ai/v1/get_result?id=1',
    'https://api.eu2.bfl.ai/v1/get_result?id=1',
    'https://api.us1.bfl.ai/v1/get_result?id=1',
    'https://API.EU.BFL.AI/v1/get_result?id=1',
    'https://api.bfl.ml/v1/get_result?id=1',
  ])('follows %s', (url) => {
    expect(trustedPollingUrl(url, BASE)).toBe(true);
  });

  it.each([
    ['plain http', 'http://api.eu2.bfl.ai/v1/get_result?id=1'],
    ['another host', 'https://api.example.com/v1/get_result?id=1'],
    ['a look-alike domain', 'https://evilbfl.ai/v1/get_result?id=1'],
    ['BFL as a subdomain of another', 'https://api.bfl.ai.example.com/v1/get_result?id=1'],
    ['credentials in the URL', 'https://user:pass@api.bfl.ai/v1/get_result?id=1'],
    ['another port', 'https://api.bfl.ai:8443/v1/get_result?id=1'],
    ['not a URL', 'get_result?id=1'],
  ])('refuses %s', (_why, url) => {
    expect(trustedPollingUrl(url, BASE)).toBe(false);
  });

  it("follows the configured base URL's origin (a proxy, the fake), whatever its scheme", () => {
    expect(trustedPollingUrl('http://127.0.0.1:4000/eu2/v1/get_result?id=1', 'http://127.0.0.1:4000')).toBe(true);
    expect(trustedPollingUrl('http://127.0.0.1:4001/eu2/v1/get_result?id=1', 'http://127.0.0.1:4000')).toBe(false);
  });

  it("polls the base URL's get_result instead of a URL it may not follow", () => {
    expect(pollingUrlFor('https://collector.example/steal', 'a b', BASE)).toBe('https://api.bfl.ai/v1/get_result?id=a%20b');
    expect(pollingUrlFor(undefined, 'id1', BASE)).toBe('https://api.bfl.ai/v1/get_result?id=id1');
  });
});

describe('a polling_url on another host', () => {
  const api = useLoopbackFake((images) => bflFlow(images));

  it('is not followed: the key goes only to the base URL', async () => {
    api.server.respondWith((sent, response) =>
      sent.method === 'POST'
        ? sendJson(response, 200, { id: 'task-9', polling_url: 'https://api.eu2.bfl.ai.example.invalid/v1/get_result?id=task-9' })
        : sendJson(response, 200, { id: 'task-9', status: 'Task not found', result: null }),
    );
    const bfl = createBflProvider({ apiKey: 'k', baseUrl: api.server.origin, pollIntervalMs: 5 }, parametersFrom(bflModels));
    const error = await rejectionOf(bfl.generate({ providerModel: 'flux-2-pro', prompt: 'p', width: 1024, height: 1024, seed: 1 }));
    expect(String(error)).toContain('no longer knows task task-9');
    expect(api.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/flux-2-pro', 'GET /v1/get_result?id=task-9']);
  });
});
