import createClient, { type Middleware } from 'openapi-fetch';
import { asFailure, failureFrom, type ApiFailure } from '../lib/api-error.js';
import type { paths } from './schema.js';

const KEY_ITEM = 'imagegate.apiKey';

/**
 * The API key lives in this tab's session storage: it survives a reload, ends with the tab, and is only
 * ever sent in the Authorization header, never in a URL.
 */
export const keyStore = {
  get(): string | undefined {
    try {
      return sessionStorage.getItem(KEY_ITEM) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set(key: string): void {
    sessionStorage.setItem(KEY_ITEM, key);
  },
  clear(): void {
    sessionStorage.removeItem(KEY_ITEM);
  },
};

let unauthorized: ((failure: ApiFailure) => void) | undefined;

/** Called when the stored key is refused (revoked, expired): the app then asks to sign in again. */
export function onUnauthorized(handler: (failure: ApiFailure) => void): void {
  unauthorized = handler;
}

const bearer = (key: string): string => `Bearer ${key}`;

/** Options for a call that tries this key instead of the stored one (signing in): its refusal is the caller's to show. */
export const withKey = (key: string): { headers: { Authorization: string } } => ({ headers: { Authorization: bearer(key) } });

/** Requests that came with their own key: a 401 to them is not the stored key being refused. */
const ownKey = new WeakSet<Request>();

/**
 * The key on every request, and an error answer (or no answer) thrown as an ApiFailure: a call that resolves has
 * its success body. A 401 to the stored key signs out; an aborted request throws its abort as it is.
 */
const keyAndFailures: Middleware = {
  onRequest({ request }) {
    if (request.headers.has('Authorization')) {
      ownKey.add(request);
      return undefined;
    }
    const key = keyStore.get();
    if (key !== undefined) request.headers.set('Authorization', bearer(key));
    return undefined;
  },
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const failure = await failureFrom(response);
    if (failure.status === 401 && !ownKey.has(request)) unauthorized?.(failure);
    throw failure;
  },
  onError({ request, error }) {
    return request.signal.aborted ? undefined : asFailure(error);
  },
};

/** The query string as URLSearchParams writes it (a space is `+`), leaving out what is not set. */
function searchParams(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(name, String(value));
  return params.toString();
}

/**
 * The API, typed from /openapi.json (schema.d.ts): a path, parameter or body the API does not have is a type error.
 * JSON in and out, the key attached; a multipart body (FormData) gets the Content-Type the browser writes, with its
 * boundary. Unwrap an answer with `dataOf`.
 */
export const api = createClient<paths>({
  credentials: 'same-origin',
  headers: { Accept: 'application/json' },
  querySerializer: searchParams,
  // Looked up at each call, as a plain fetch() would be.
  fetch: (request) => fetch(request),
});
api.use(keyAndFailures);

/** The success body of an answer as openapi-fetch types it (a union of success and error). */
type DataOf<R> = R extends { error: unknown } ? never : R extends { data: infer D } ? D : never;

/** The success body of a call to `api`. */
export async function dataOf<R extends { data?: unknown; error?: unknown }>(call: Promise<R>): Promise<DataOf<R>> {
  const answer = await call;
  // Only a success answer comes back: keyAndFailures throws every other.
  if (answer.error !== undefined) throw asFailure(answer.error);
  return answer.data as DataOf<R>;
}
