import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressLookup } from './address-policy.js';
import { createDohLookup } from './doh-lookup.js';
import { createFetchWebhookTransport } from './fetch-webhook-transport.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server on loopback answering with `answer`, recording what it was sent. */
async function serve(answer: (seen: Seen, response: http.ServerResponse) => void): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      answer(entry, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('createDohLookup', () => {
  it('asks for A and AAAA records in the JSON form and keeps only address records', async () => {
    const resolver = await serve((seen, response) => {
      const type = new URL(seen.url, 'http://x').searchParams.get('type');
      const Answer =
        type === 'A'
          ? [
              { name: 'hooks.example', type: 5, TTL: 60, data: 'edge.example.' },
              { name: 'edge.example', type: 1, TTL: 60, data: '93.184.215.14' },
            ]
          : [{ name: 'edge.example', type: 28, TTL: 60, data: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' }];
      response.setHeader('content-type', 'application/dns-json');
      response.end(JSON.stringify({ Status: 0, Answer }));
    });
    const lookup = createDohLookup({ url: `${resolver.origin}/dns-query` });
    expect(await lookup('hooks.example')).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    expect(resolver.seen.map((seen) => [seen.url, seen.headers.accept]).sort()).toEqual([
      ['/dns-query?name=hooks.example&type=A', 'application/dns-json'],
      ['/dns-query?name=hooks.example&type=AAAA', 'application/dns-json'],
    ]);
  });

  it('says a name that does not exist does not resolve, naming the DNS status', async () => {
    const resolver = await serve((_seen, response) => response.end(JSON.stringify({ Status: 3 })));
    await expect(createDohLookup({ url: resolver.origin })('nowhere.example')).rejects.toThrow('the name does not resolve (NXDOMAIN)');
  });
});

describe('createFetchWebhookTransport (no address pinning: checks before every delivery)', () => {
  const fixed =
    (answers: Record<string, string>): AddressLookup =>
    async (hostname) => {
      const address = answers[hostname];
      if (address === undefined) throw new Error('the name does not resolve (NXDOMAIN)');
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    };

  it('POSTs the body and headers once and reports the status, without following a redirect', async () => {
    const receiver = await serve((_seen, response) => {
      response.statusCode = 302;
      response.setHeader('location', '/elsewhere');
      response.end();
    });
    const transport = createFetchWebhookTransport({ lookup: fixed({}), allowPrivateNetworks: true });
    const result = await transport.post(
      `${receiver.origin}/hook`,
      '{"event":"batch.completed"}',
      { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      5_000,
    );
    expect(result).toEqual({ status: 302 });
    expect(receiver.seen).toHaveLength(1);
    expect(receiver.seen[0]).toMatchObject({ method: 'POST', url: '/hook', body: '{"event":"batch.completed"}', headers: { 'webhook-id': 'msg_1' } });
  });

  it('refuses a name that resolves to a private address, when the URL is given and again at delivery', async () => {
    const answers: Record<string, string> = { 'hooks.example': '93.184.215.14' };
    let calls = 0;
    const transport = createFetchWebhookTransport({
      lookup: fixed(answers),
      allowPrivateNetworks: false,
      fetch: async () => {
        calls += 1;
        return new Response(null, { status: 204 });
      },
    });
    await expect(transport.check('https://hooks.example/in')).resolves.toBeUndefined();
    // Rebound after the batch was accepted: the delivery is refused, and nothing is sent.
    answers['hooks.example'] = '10.0.0.5';
    const result = await transport.post('https://hooks.example/in', '{}', {}, 5_000);
    expect(result).toEqual({ error: expect.stringContaining('resolves to 10.0.0.5, which is not a public address (private)') });
    expect(calls).toBe(0);
    await expect(transport.check('http://127.0.0.1:9/')).rejects.toThrow('is not a public address (loopback)');
    await expect(transport.check('http://localhost/')).rejects.toThrow('(loopback)');
  });

  it('gives up on a receiver that does not answer within the delivery timeout', async () => {
    const silent = await serve(() => undefined);
    const transport = createFetchWebhookTransport({ lookup: fixed({}), allowPrivateNetworks: true });
    expect(await transport.post(silent.origin, '{}', {}, 200)).toEqual({ error: 'no answer within 200 ms' });
  });
});
