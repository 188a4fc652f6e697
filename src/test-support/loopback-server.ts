import http from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { sampleImages, type SampleImages } from './fake-images.js';

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
  /** The node server, for fakes that also speak websockets (its `upgrade` event). */
  httpServer: http.Server;
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
    httpServer: server,
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

/** A file part of a multipart form, as a server reads it. */
export interface ReceivedFile {
  filename: string;
  type: string;
  bytes: Buffer;
}

/** A multipart form as received: its text fields, and its file parts under each field name, in order. */
export interface ReceivedForm {
  fields: Record<string, string>;
  files: Record<string, ReceivedFile[]>;
}

/** Parses a multipart request for real (undici's parser, as formOf) into text fields and file parts. */
export async function multipartOf(request: RecordedRequest): Promise<ReceivedForm> {
  const received: ReceivedForm = { fields: {}, files: {} };
  for (const [name, value] of (await formOf(request)).entries()) {
    if (typeof value === 'string') received.fields[name] = value;
    else (received.files[name] ??= []).push({ filename: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return received;
}

/** The one request the fake received; fails the test when it received none or several. */
export function onlyRequest(server: LoopbackServer): RecordedRequest {
  expect(server.requests.map((r) => `${r.method} ${r.path}`)).toHaveLength(1);
  const [first] = server.requests;
  if (first === undefined) throw new Error('no request reached the fake');
  return first;
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

/**
 * One loopback fake for a test file: started before its tests, closed after them, and before each test its
 * recorded requests cleared and `defaultAnswer` restored. Read `server` and `images` inside tests.
 */
export function useLoopbackFake(defaultAnswer: (images: SampleImages) => Responder): { readonly server: LoopbackServer; readonly images: SampleImages } {
  let server: LoopbackServer | undefined;
  let images: SampleImages | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the loopback fake is used before it started (outside a test?)');
    return value;
  };
  beforeAll(async () => {
    images = await sampleImages();
    server = await startLoopbackServer();
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    const fake = ready(server);
    fake.requests.length = 0;
    fake.respondWith(defaultAnswer(ready(images)));
  });
  return {
    get server() {
      return ready(server);
    },
    get images() {
      return ready(images);
    },
  };
}
