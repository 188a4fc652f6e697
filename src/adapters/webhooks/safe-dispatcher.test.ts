import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getDefaultAutoSelectFamily, setDefaultAutoSelectFamily } from 'node:net';
import { fetch, type Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UnsafeWebhookUrl, type AddressLookup } from './address-policy.js';
import { createSafeDispatcher } from './safe-dispatcher.js';

// `rebind.test` stands for a name that was public when the webhook was submitted but now answers with loopback.
const rebindingLookup: AddressLookup = async (hostname) => {
  if (hostname === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
  throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
};

let server: Server;
let port = 0;
let connections = 0;
let requests = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    requests += 1;
    response.end('ok');
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const dispatchers: Dispatcher[] = [];
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
  connections = 0;
  requests = 0;
});

function dispatcher(allowPrivateNetworks: boolean): Dispatcher {
  const created = createSafeDispatcher({ lookup: rebindingLookup, allowPrivateNetworks, connectTimeoutMs: 2_000 });
  dispatchers.push(created);
  return created;
}

// undici's fetch wraps connection failures in `TypeError: fetch failed`; the refusal is the cause.
async function connectFailure(url: string, using: Dispatcher): Promise<unknown> {
  const error: unknown = await fetch(url, { dispatcher: using, redirect: 'manual' }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof Error)) throw new Error(`expected fetching ${url} to fail`);
  return error.cause;
}

describe('createSafeDispatcher with private networks not allowed', () => {
  it('refuses to connect to a loopback IP literal', async () => {
    const cause = await connectFailure(`http://127.0.0.1:${port}/`, dispatcher(false));
    expect(cause).toBeInstanceOf(UnsafeWebhookUrl);
    expect(String(cause)).toMatch(/host 127\.0\.0\.1 is not a public address \(loopback\)/);
    expect({ connections, requests }).toEqual({ connections: 0, requests: 0 });
  });

  it('refuses to connect to an IPv4-mapped IPv6 loopback literal', async () => {
    const cause = await connectFailure(`http://[::ffff:127.0.0.1]:${port}/`, dispatcher(false));
    expect(cause).toBeInstanceOf(UnsafeWebhookUrl);
    expect({ connections, requests }).toEqual({ connections: 0, requests: 0 });
  });

  it('refuses to connect when a name now resolves to loopback (DNS rebinding)', async () => {
    const cause = await connectFailure(`http://rebind.test:${port}/`, dispatcher(false));
    expect(cause).toBeInstanceOf(UnsafeWebhookUrl);
    expect(String(cause)).toMatch(/host rebind\.test resolves to 127\.0\.0\.1, which is not a public address/);
    expect({ connections, requests }).toEqual({ connections: 0, requests: 0 });
  });

  it('refuses a rebinding name also when net asks for a single address (autoSelectFamily off)', async () => {
    const before = getDefaultAutoSelectFamily();
    setDefaultAutoSelectFamily(false);
    try {
      const cause = await connectFailure(`http://rebind.test:${port}/`, dispatcher(false));
      expect(cause).toBeInstanceOf(UnsafeWebhookUrl);
    } finally {
      setDefaultAutoSelectFamily(before);
    }
    expect({ connections, requests }).toEqual({ connections: 0, requests: 0 });
  });

  it('passes on resolution failures without connecting', async () => {
    const cause = await connectFailure(`http://nowhere.test:${port}/`, dispatcher(false));
    expect(String(cause)).toMatch(/ENOTFOUND nowhere\.test/);
    expect({ connections, requests }).toEqual({ connections: 0, requests: 0 });
  });
});

describe('createSafeDispatcher with private networks allowed', () => {
  it('reaches a loopback IP literal', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/`, { dispatcher: dispatcher(true), redirect: 'manual' });
    expect(await response.text()).toBe('ok');
    expect(requests).toBe(1);
  });

  it('reaches a name through the injected lookup', async () => {
    const response = await fetch(`http://rebind.test:${port}/`, { dispatcher: dispatcher(true), redirect: 'manual' });
    expect(await response.text()).toBe('ok');
    expect(requests).toBe(1);
  });
});
