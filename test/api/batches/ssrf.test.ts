import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressLookup } from '../../../src/adapters/webhooks/address-policy.js';
import { createHttpWebhookTransport } from '../../../src/adapters/webhooks/http-webhook-transport.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';

/** Test DNS: names map to fixed answers, like a zone file. */
const zone: Record<string, string[]> = {
  'public.test': ['93.184.215.14'],
  'internal.test': ['10.0.0.5'],
  'mixed.test': ['93.184.215.14', '127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'v6-private.test': ['fd00:ec2::254'],
};
const lookup: AddressLookup = async (hostname) => {
  const answers = zone[hostname];
  if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ lookup, allowPrivateNetworks: false });
});
afterAll(async () => {
  await h.close();
});

const submit = (webhookUrl: string) =>
  h.call('POST', '/api/batch/generate', { prompts: ['a cat'], model: 'local/procedural', width: 64, height: 64, webhook_url: webhookUrl });

describe('webhook_url SSRF policy at submission (private networks not allowed)', () => {
  it.each(['http://127.0.0.1/hook', 'http://internal.test/hook'])('names the setting that allows private receivers when refusing %s', async (url) => {
    const res = await submit(url);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ details: { field: 'webhook_url', message: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true') } });
  });

  it.each([
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'http://app.localhost/hook',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://[::1]/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://017700000001/',
    'http://127.1/',
    'http://[fe80::1]/',
    'http://100.64.0.1/',
    'http://[64:ff9b::7f00:1]/',
    'http://224.0.0.1/',
    'http://internal.test/hook',
    'http://mixed.test/hook',
    'http://metadata.test/hook',
    'http://v6-private.test/hook',
    'http://unknown.test/hook',
    'http://user:pass@public.test/hook',
  ])('refuses %s with a 400 naming webhook_url', async (url) => {
    const res = await submit(url);
    expect(res.status).toBe(400);
    expect((await json(res)).details).toMatchObject({ field: 'webhook_url', message: expect.stringContaining('webhook_url') });
  });

  it.each(['https://93.184.215.14/hook', 'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook', 'https://public.test/hook'])('accepts %s', async (url) => {
    expect((await submit(url)).status).toBe(201);
  });
});

describe('the connect-time check (DNS rebinding)', () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses to dial a name that now resolves to loopback, though it looked public at submission', async () => {
    let calls = 0;
    const rebinding: AddressLookup = async () => [{ address: (calls += 1) === 1 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    const transport = createHttpWebhookTransport({ lookup: rebinding, allowPrivateNetworks: false });
    await transport.check(`http://rebind.test:${port}/hook`);
    const result = await transport.post(`http://rebind.test:${port}/hook`, '{}', { 'Content-Type': 'application/json' }, 2000);
    expect(result).toEqual({ error: expect.stringContaining('not a public address') });
    expect(hits).toBe(0);
  });

  it('refuses to dial a private IP literal even if it got past submission', async () => {
    const transport = createHttpWebhookTransport({ lookup, allowPrivateNetworks: false });
    const result = await transport.post(`http://127.0.0.1:${port}/hook`, '{}', {}, 2000);
    expect(result).toEqual({ error: expect.stringContaining('not a public address') });
    expect(hits).toBe(0);
  });

  it('reaches loopback when private networks are allowed', async () => {
    const transport = createHttpWebhookTransport({ lookup: async () => [{ address: '127.0.0.1', family: 4 }], allowPrivateNetworks: true });
    expect(await transport.post(`http://rebind.test:${port}/hook`, '{}', {}, 2000)).toEqual({ status: 200 });
    expect(hits).toBe(1);
  });
});
