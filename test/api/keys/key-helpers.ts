import { json, type Harness } from '../../../src/test-support/harness.js';

export interface CreatedKey {
  id: string;
  key: string;
  user_id: string;
}

/** Creates a key through the API as the harness admin. */
export async function createKeyFor(h: Harness, body: Record<string, unknown>): Promise<CreatedKey> {
  const res = await h.call('POST', '/api/keys', { name: 'test', permissions: ['manage'], ...body });
  if (res.status !== 201) throw new Error(`could not create key: ${res.status} ${await res.text()}`);
  return json<CreatedKey>(res);
}

/** A request as a given key, JSON body optional. */
export function as(h: Harness, key: string, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return Promise.resolve(h.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}
