import http from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** Parsed JSON when the body parses, the text otherwise, so a malformed body still shows in a failure. */
  body: unknown;
}

export type Responder = (request: RecordedRequest, response: ServerResponse, server: LoopbackServer) => void | Promise<void>;

/**
 * A real HTTP server on 127.0.0.1 standing in for a provider's API: it records every request and answers with
 * whatever responder the test sets, so adapter tests see exactly what the provider would receive.
 */
export interface LoopbackServer {
  origin: string;
  requests: RecordedRequest[];
  respondWith(responder: Responder): void;
  /** Leaves the answer hanging until the server closes (for timeouts). */
  stall(response: ServerResponse): void;
  close(): Promise<void>;
}

export async function startLoopbackServer(initial?: Responder): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const stalled: ServerResponse[] = [];
  // A test that forgets to set an answer gets a loud, non-image one rather than a hang.
  let responder: Responder = initial ?? ((_request, response) => sendJson(response, 599, { error: 'no answer set for this test' }));
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks);
      const recorded: RecordedRequest = { method: incoming.method ?? '', path: incoming.url ?? '', headers: incoming.headers, raw, body: parseBody(raw) };
      requests.push(recorded);
      Promise.resolve(responder(recorded, response, loopback)).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 598, { error: `fake failed: ${String(error)}` });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const loopback: LoopbackServer = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    respondWith(next) {
      responder = next;
    },
    stall(response) {
      stalled.push(response);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of stalled.splice(0)) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return loopback;
}

function parseBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

export function sendBytes(response: ServerResponse, status: number, contentType: string, bytes: Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': bytes.length, ...headers });
  response.end(bytes);
}

/** The multipart form a request carried, parsed the way a server would (undici's FormData parser). */
export async function formOf(request: RecordedRequest): Promise<FormData> {
  return new Response(new Uint8Array(request.raw), { headers: { 'Content-Type': String(request.headers['content-type']) } }).formData();
}

/** The rejection of `promise`; fails the test if it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}
