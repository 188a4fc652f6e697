import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';

let h: Harness;
let server: ServerType;
let port: number;
beforeAll(async () => {
  h = await createHarness();
  server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

/** Sends raw bytes on a fresh socket and collects everything until the server closes it (or a pause). */
function exchange(request: string): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const idle = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedByServer: false });
    }, 1500);
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => {
      clearTimeout(idle);
      resolve({ text, closedByServer: true });
    });
    socket.on('error', reject);
    socket.write(request);
  });
}

describe('a body over the limit', () => {
  it('is answered 413 with Connection: close, and the server then closes the socket', async () => {
    const head = `POST /api/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\nConnection: keep-alive\r\n\r\n`;
    const { text, closedByServer } = await exchange(`${head}{"name":"${'x'.repeat(1000)}`);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text.toLowerCase()).not.toContain('connection: keep-alive');
    expect(closedByServer).toBe(true);
  });

  it('leaves a keep-alive client able to send its next request', async () => {
    const url = `http://127.0.0.1:${port}/api/collections`;
    const headers = { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' };
    const tooLarge = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(tooLarge.status).toBe(413);
    const next = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ name: 'after' }) });
    expect(next.status).toBe(201);
  });

  it('accepts every valid JSON media type through a real socket too', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/collections`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json ; charset=utf-8' },
      body: JSON.stringify({ name: 'spaced' }),
    });
    expect(res.status).toBe(201);
  });
});
