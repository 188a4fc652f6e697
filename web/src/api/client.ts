import { asFailure, failureFrom, type ApiFailure } from '../lib/api-error.js';

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

export interface RequestOptions {
  body?: unknown;
  /** A key to try instead of the stored one (signing in). */
  key?: string;
  signal?: AbortSignal;
  /** Lets the request finish after the page is gone (deletes still waiting for their undo time). */
  keepalive?: boolean;
}

/** One call to the API: JSON in and out, the key attached; an error answer throws an ApiFailure. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const key = options.key ?? keyStore.get();
  if (key !== undefined) headers.Authorization = `Bearer ${key}`;
  const init: RequestInit = { method, headers, credentials: 'same-origin', keepalive: options.keepalive === true };
  if (options.signal !== undefined) init.signal = options.signal;
  if (options.body instanceof FormData) {
    // The browser writes the multipart Content-Type itself, with the boundary it chose.
    init.body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    throw asFailure(error);
  }
  if (!response.ok) {
    const failure = await failureFrom(response);
    if (failure.status === 401 && options.key === undefined) unauthorized?.(failure);
    throw failure;
  }
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/** An id as one path segment: whatever it contains, it cannot reach another path. */
export const segment = (value: string): string => encodeURIComponent(value);
