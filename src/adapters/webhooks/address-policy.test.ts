import { describe, expect, it } from 'vitest';
import { addressRange, checkWebhookUrl, ipVersion, isPublicAddress, UnsafeWebhookUrl, type AddressLookup } from './address-policy.js';

// Injected DNS: fixed answers, so no test depends on the network or the machine's resolver.
const answers: Record<string, { address: string; family: 4 | 6 }[]> = {
  'internal.example': [{ address: '10.0.0.5', family: 4 }],
  'mixed.example': [
    { address: '93.184.215.14', family: 4 },
    { address: '192.168.0.10', family: 4 },
  ],
  'mapped.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'compat.example': [{ address: '::127.0.0.1', family: 6 }],
  'hooks.example': [
    { address: '93.184.215.14', family: 4 },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
  ],
  'empty.example': [],
};
const lookup: AddressLookup = async (hostname) => {
  const found = answers[hostname];
  if (found === undefined) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return found;
};
const strict = { lookup, allowPrivateNetworks: false };

async function refusal(raw: string, options = strict): Promise<UnsafeWebhookUrl> {
  const error: unknown = await checkWebhookUrl(raw, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UnsafeWebhookUrl)) throw new Error(`expected ${raw} to be refused, got ${String(error)}`);
  return error;
}

describe('WHATWG URL parsing', () => {
  it.each(['http://2130706433/', 'http://0x7f.1/', 'http://017700000001/', 'http://127.1/', 'http://127.0.0.1./'])(
    'normalises the numeric IPv4 trick %s to 127.0.0.1',
    (raw) => {
      expect(new URL(raw).hostname).toBe('127.0.0.1');
    },
  );
});

describe('checkWebhookUrl with private networks not allowed', () => {
  it.each([
    ['http://127.0.0.1/', /host 127\.0\.0\.1 is not a public address \(loopback\)/],
    ['http://localhost/', /host localhost is not a public address \(loopback\)/],
    ['http://api.localhost./', /host api\.localhost\. is not a public address \(loopback\)/],
    ['http://10.0.0.1/', /\(private\)/],
    ['http://172.16.5.4/', /\(private\)/],
    ['http://192.168.1.1/', /\(private\)/],
    ['http://169.254.169.254/latest/meta-data/', /host 169\.254\.169\.254 is not a public address \(linkLocal\)/],
    ['http://[fd00:ec2::254]/', /host fd00:ec2::254 is not a public address \(uniqueLocal\)/],
    ['http://[::1]/', /\(loopback\)/],
    ['http://0.0.0.0/', /\(unspecified\)/],
    ['http://[::]/', /\(unspecified\)/],
    ['http://[::ffff:127.0.0.1]/', /\(loopback\)/],
    ['http://[::ffff:10.0.0.1]/', /\(private\)/],
    ['http://[::127.0.0.1]/', /host ::7f00:1 is not a public address \(ipv4Compatible\)/],
    ['http://2130706433/', /host 127\.0\.0\.1 .*\(loopback\)/],
    ['http://0x7f.1/', /host 127\.0\.0\.1 .*\(loopback\)/],
    ['http://017700000001/', /host 127\.0\.0\.1 .*\(loopback\)/],
    ['http://127.1/', /host 127\.0\.0\.1 .*\(loopback\)/],
    ['http://[fe80::1]/', /\(linkLocal\)/],
    ['http://100.64.0.1/', /\(carrierGradeNat\)/],
    ['http://[64:ff9b::7f00:1]/', /\(rfc6052\)/],
    ['http://[2002:7f00:1::]/', /\(6to4\)/],
    ['http://[2001::1]/', /\(teredo\)/],
    ['http://224.0.0.1/', /\(multicast\)/],
    ['http://255.255.255.255/', /\(broadcast\)/],
    ['http://192.0.2.1/', /\(reserved\)/],
    ['http://198.18.0.1/', /\(reserved\)/],
    ['http://240.0.0.1/', /\(reserved\)/],
    ['ftp://example.com/', /must be an absolute http\(s\) URL/],
    ['/relative', /must be an absolute http\(s\) URL/],
    ['not a url', /must be an absolute http\(s\) URL/],
    ['http://user:pass@example.com/', /must not contain a username or password/],
    ['http://internal.example/', /host internal\.example resolves to 10\.0\.0\.5, which is not a public address \(private\)/],
    ['http://mixed.example/', /host mixed\.example resolves to 192\.168\.0\.10, which is not a public address/],
    ['http://mapped.example/', /resolves to ::ffff:127\.0\.0\.1, which is not a public address \(loopback\)/],
    ['http://compat.example/', /resolves to ::127\.0\.0\.1, which is not a public address \(ipv4Compatible\)/],
    ['http://empty.example/', /host empty\.example does not resolve/],
    ['http://nowhere.example/', /host nowhere\.example does not resolve \(getaddrinfo ENOTFOUND/],
  ])('refuses %s', async (raw, reason) => {
    const error = await refusal(raw);
    expect(error.reason).toMatch(reason);
    expect(error.message).toBe(error.reason);
  });

  it('refuses localhost without asking DNS', async () => {
    const asked: string[] = [];
    const spy: AddressLookup = async (hostname) => {
      asked.push(hostname);
      return [{ address: '93.184.215.14', family: 4 }];
    };
    await refusal('http://LocalHost/', { lookup: spy, allowPrivateNetworks: false });
    expect(asked).toEqual([]);
  });

  it.each(['https://93.184.215.14/hook', 'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/', 'https://hooks.example/batch?x=1'])('accepts %s', async (raw) => {
    const url = await checkWebhookUrl(raw, strict);
    expect(url.href).toBe(new URL(raw).href);
  });
});

describe('checkWebhookUrl with private networks allowed', () => {
  const loose = { lookup, allowPrivateNetworks: true };

  it.each(['http://127.0.0.1:3000/hook', 'http://localhost:3000/hook', 'http://internal.example/'])('accepts %s', async (raw) => {
    await expect(checkWebhookUrl(raw, loose)).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ['ftp://127.0.0.1/', /absolute http\(s\) URL/],
    ['/relative', /absolute http\(s\) URL/],
    ['http://user:pass@127.0.0.1/', /username or password/],
  ])('still refuses the malformed %s', async (raw, reason) => {
    expect((await refusal(raw, loose)).reason).toMatch(reason);
  });
});

describe('isPublicAddress', () => {
  it.each(['93.184.215.14', '8.8.8.8', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '2001:4860:4860::8888', '::ffff:8.8.8.8'])(
    'accepts the public unicast address %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it.each([
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['192.0.0.8', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.31.196.1', 'as112'],
    ['192.52.193.1', 'amt'],
    ['::', 'unspecified'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['ff02::1', 'multicast'],
    ['5f00::1', 'segmentRouting'],
    ['4000::1', 'reserved'],
    ['127.1', 'invalid'],
    ['example.com', 'invalid'],
  ])('refuses %s (%s)', (ip, range) => {
    expect(isPublicAddress(ip)).toBe(false);
    expect(addressRange(ip)).toBe(range);
  });
});

describe('ipVersion (runtime-neutral, in place of node:net isIP)', () => {
  const samples = [
    '127.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '256.0.0.1',
    '127.1',
    '0x7f.0.0.1',
    '127.000.0.1',
    '01.2.3.4',
    '1.2.3',
    '1.2.3.4.5',
    ' 1.2.3.4',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::127.0.0.1',
    'fe80::1',
    'fe80::1%eth0',
    '2001:db8::1',
    '2001:db8:::1',
    '[::1]',
    'gggg::1',
    '1::2::3',
    'example.com',
    'localhost',
    '',
    '12345',
    ':',
  ];
  it.each(samples)('answers for %j what Node answers', async (text) => {
    const { isIP } = await import('node:net');
    expect(ipVersion(text)).toBe(isIP(text));
  });
});
