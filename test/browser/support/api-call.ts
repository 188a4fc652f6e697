/**
 * Calls the server's API as a test sets up or checks what the page did (templates, images, batches): JSON in and
 * out with the key as bearer; any answer but a 2xx fails the test with its body.
 */
export async function callApi<T>(origin: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}
