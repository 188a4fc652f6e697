import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLimitedServer, type ConnectionLimits } from '../../../src/runtimes/node/entry/server-limits.js';
import { createHarness, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { photoPng } from '../../support/sample-images.js';

let h: Harness;
let server: ServerType | undefined;
const sockets: net.Socket[] = [];
beforeEach(async () => {
  h = await createHarness({ workers: false });
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  const running = server;
  server = undefined;
  if (running !== undefined) await new Promise((resolve) => running.close(resolve));
  await h.close();
});

/** The server as startServer builds it (deadlines and cap), on the harness's app, listening on a free port. */
async function start(limits: ConnectionLimits): Promise<number> {
  const started = createLimitedServer({ fetch: h.app.fetch, hostname: '127.0.0.1', limits, logger: h.deps.logger });
  server = started;
  await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', () => resolve()));
  return (started.address() as AddressInfo).port;
}

interface Outcome {
  text: string;
  /** Milliseconds from connecting until the server closed the socket. */
  closedAfterMs: number;
}

/** Opens a socket, writes `first`, and collects what comes back until the server closes it. */
function connect(port: number, first: string): { socket: net.Socket; closed: Promise<Outcome> } {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  const started = performance.now();
  let text = '';
  const closed = new Promise<Outcome>((resolve) => {
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => undefined); // a refused connection may reset rather than end
    socket.on('close', () => resolve({ text, closedAfterMs: performance.now() - started }));
  });
  socket.write(first);
  return { socket, closed };
}

const uploadHead = (length: number) =>
  `POST /api/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n`;

const BOUNDARY = 'steady-boundary-1234';

/** The bytes of a form with one file field, as a client sends them. */
async function multipartUpload(png: Buffer): Promise<Buffer> {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

const head = (length: number) =>
  `POST /api/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('connection limits', () => {
  it('cuts off a client that sends its body too slowly, with a 408, once the request deadline passes', async () => {
    const port = await start({ maxConnections: 100, headersTimeoutMs: 500, requestTimeoutMs: 1200 });
    const { socket, closed } = connect(port, `${head(200)}{"name":"`);
    // A byte every 100 ms keeps the socket busy (no idle timeout applies) but would take 20 s to finish.
    const drip = setInterval(() => socket.writable && socket.write('x'), 100);
    const outcome = await closed;
    clearInterval(drip);
    expect(outcome.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(1000);
    expect(outcome.closedAfterMs).toBeLessThan(5000);
  });

  it('keeps receiving an upload that arrives steadily for longer than the deadline, and stores it', async () => {
    const port = await start({ maxConnections: 100, headersTimeoutMs: 500, requestTimeoutMs: 600, minBodyProgressBytes: 1024 });
    const body = await multipartUpload(await photoPng(256, 256));
    const { socket, closed } = connect(port, uploadHead(body.length));
    // Listening from the start: an answer that comes while the last share is sent is not missed.
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('"kind":"upload"') || /^HTTP\/1\.1 (?!201)/.test(text)) resolve(text);
      });
    });
    // A share every 50 ms: the whole body takes about four deadlines to arrive, each deadline bringing plenty.
    const share = Math.ceil(body.length / 40);
    for (let at = 0; at < body.length; at += share) {
      socket.write(body.subarray(at, at + share));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answered = await answer;
    socket.destroy();
    await closed;
    expect(answered).toMatch(/^HTTP\/1\.1 201 /);
  });

  it('cuts off with a 408 a client that goes idle in the middle of its upload', async () => {
    const port = await start({ maxConnections: 100, headersTimeoutMs: 500, requestTimeoutMs: 600, minBodyProgressBytes: 1024 });
    const body = await multipartUpload(await photoPng(256, 256));
    const { socket, closed } = connect(port, uploadHead(body.length));
    socket.write(body.subarray(0, Math.floor(body.length / 2)));
    const outcome = await closed;
    expect(outcome.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(await h.blobs.keys()).toEqual([]);
  });

  it('refuses connections past MAX_CONNECTIONS, and accepts again once one closes', async () => {
    const port = await start({ maxConnections: 2 });
    const held = [connect(port, head(50)), connect(port, head(50))];
    await new Promise((resolve) => setTimeout(resolve, 200)); // both are accepted before the third arrives
    const refused = await connect(port, head(50)).closed;
    expect(refused.text).toBe('');
    expect(refused.closedAfterMs).toBeLessThan(1000);

    held[0]?.socket.destroy();
    await held[0]?.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    expect(response.status).toBe(200);
  });

  it('logs a request whose client hangs up as one info line client_aborted, without an error or a status', async () => {
    const port = await start({ maxConnections: 100 });
    const info = vi.spyOn(h.deps.logger, 'info');
    const error = vi.spyOn(h.deps.logger, 'error');
    // LogFn is overloaded, so the spy's calls are typed by its last form, (message); read them as plain lists.
    const lines = (): unknown[][] => info.mock.calls.map((call): unknown[] => call);
    const { socket } = connect(port, `${head(200)}{"name":"half`);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the route is reading the body
    socket.destroy();
    await vi.waitFor(() => expect(lines().some((call) => call[1] === 'client_aborted')).toBe(true), { timeout: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 200));

    const aborted = lines().filter((call) => call[1] === 'client_aborted');
    expect(aborted).toHaveLength(1);
    expect(aborted[0]?.[0]).toMatchObject({ method: 'POST', path: '/api/collections' });
    expect(aborted[0]?.[0]).not.toHaveProperty('status');
    expect(lines().filter((call) => call[1] === 'request')).toHaveLength(0);
    expect(error).not.toHaveBeenCalled();
  });
});
