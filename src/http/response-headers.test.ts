import { Hono, type Handler } from 'hono';
import type { AppEnv } from './app-env.js';
import { describe, expect, it } from 'vitest';
import { respondWith, responseHeaders, setResponseHeader } from './response-headers.js';

function appWith(route: Handler<AppEnv>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', responseHeaders());
  app.use('*', async (c, next) => {
    setResponseHeader(c, 'X-Request-Id', 'req_1');
    setResponseHeader(c, 'Access-Control-Allow-Origin', '*');
    await next();
  });
  app.get('/page', route);
  app.onError((_error, c) => c.json({ error: 'failed' }, 500));
  return app;
}

describe('response headers gathered while a request runs', () => {
  it('are built into an answer made with respondWith, beside its content type', async () => {
    const res = await appWith((c) => respondWith(c, '{"a":1}', 200, 'application/json')).request('/page');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"a":1}');
    expect(Object.fromEntries(res.headers)).toEqual({ 'x-request-id': 'req_1', 'access-control-allow-origin': '*', 'content-type': 'application/json' });
  });

  it('are set on any other answer: c.json, a plain text, an error', async () => {
    const routes: Handler<AppEnv>[] = [(c) => c.json({ a: 1 }, 201), (c) => c.text('Forbidden', 403)];
    for (const route of routes) {
      const res = await appWith(route).request('/page');
      expect([res.headers.get('X-Request-Id'), res.headers.get('Access-Control-Allow-Origin')]).toEqual(['req_1', '*']);
    }
    const failed = await appWith(() => {
      throw new Error('boom');
    }).request('/page');
    expect(failed.status).toBe(500);
    expect(failed.headers.get('X-Request-Id')).toBe('req_1');
  });

  it('refuse a header added after respondWith built the answer, which would otherwise be lost', async () => {
    const res = await appWith((c) => {
      const answer = respondWith(c, '{}', 200, 'application/json');
      setResponseHeader(c, 'X-Late', 'yes');
      return answer;
    }).request('/page');
    expect(res.status).toBe(500);
  });
});
