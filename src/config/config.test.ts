import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, listenAddressUrl, parseConfig } from './config.js';
import { loadConfig } from '../runtimes/node/config.js';

describe('loadConfig', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      publicBaseUrl: 'http://127.0.0.1:8787',
      authMode: 'api_key',
      clientIpHeader: 'CF-Connecting-IP',
      adminApiKey: undefined,
    });
  });

  it('caps open connections at 1000 unless MAX_CONNECTIONS says otherwise', () => {
    expect(loadConfig({}).maxConnections).toBe(1000);
    expect(loadConfig({ MAX_CONNECTIONS: '20000' }).maxConnections).toBe(20000);
  });

  it('derives the public base URL from HOST and PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '9000' }).publicBaseUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://img.example.com/' }).publicBaseUrl).toBe('https://img.example.com');
  });

  it('keeps leftovers of a stopped process for 15 minutes unless ORPHAN_GRACE_SECONDS says otherwise', () => {
    expect(loadConfig({}).storage.orphanGraceSeconds).toBe(900);
    expect(loadConfig({ ORPHAN_GRACE_SECONDS: '0' }).storage.orphanGraceSeconds).toBe(0);
  });

  it("serves no metrics without METRICS_TOKEN, and the worker's on port 9464 unless METRICS_PORT says otherwise", () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, port: 9464 });
    expect(loadConfig({ METRICS_TOKEN: ' ', METRICS_PORT: '9100' }).metrics).toEqual({ token: undefined, port: 9100 });
    const token = 'b3f1c0ffee0123456789abcdef';
    expect(loadConfig({ METRICS_TOKEN: token }).metrics.token).toBe(token);
    // A token too short to resist guessing, or one that cannot be sent as a bearer token, stops start-up.
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has spaces in the middle of it' })).toThrow(/METRICS_TOKEN/);
  });

  it('trims and canonicalises ALLOWED_IPS', () => {
    const config = loadConfig({ AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: ' 10.0.0.1 ,2001:DB8::1 ' });
    expect(config.allowedIps).toEqual(['10.0.0.1', '2001:db8:0:0:0:0:0:1']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ AUTH_MODE: 'open' }, 'AUTH_MODE'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ MAX_CONNECTIONS: 'many' }, 'MAX_CONNECTIONS'],
    [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS'],
    [{ MAX_CONNECTIONS: '2.5' }, 'MAX_CONNECTIONS'],
    [{ A1111_BASE_URL: 'localhost:7860' }, 'A1111_BASE_URL'],
    [{ A1111_BASE_URL: 'http://127.0.0.1:7860', A1111_USERNAME: 'me' }, 'A1111_PASSWORD'],
    [{ OPENAI_BASE_URL: 'not a url' }, 'OPENAI_BASE_URL'],
    [{ ORPHAN_GRACE_SECONDS: '-1' }, 'ORPHAN_GRACE_SECONDS'],
    [{ COMFYUI_URL: '127.0.0.1:8188' }, 'COMFYUI_URL'],
    [{ REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_FALLBACK: 'open' }, 'RATE_LIMIT_FALLBACK'],
    [{ REDIS_COMMAND_TIMEOUT_MS: '1s' }, 'REDIS_COMMAND_TIMEOUT_MS'],
    [{ DATABASE_CONNECT_TIMEOUT_MS: '0' }, 'DATABASE_CONNECT_TIMEOUT_MS'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '-5' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
  ])('fails fast naming the bad setting (%j)', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}:`));
  });

  it('reads the ComfyUI server address without a trailing slash and its workflow folder as an absolute path', () => {
    const config = loadConfig({ COMFYUI_URL: 'http://gpu-box:8188/', COMFYUI_WORKFLOWS: 'my-workflows' });
    expect(config.providerEnv).toMatchObject({ COMFYUI_URL: 'http://gpu-box:8188', COMFYUI_WORKFLOWS: path.resolve('my-workflows') });
    expect(loadConfig({}).providerEnv.COMFYUI_WORKFLOWS).toBeUndefined();
  });

  it('bounds database and Redis waits by default, and reads the rate-limit fallback (closed unless memory)', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@h/db', REDIS_URL: 'redis://h:6379' });
    expect(config.database).toMatchObject({ connectTimeoutMs: 5_000, statementTimeoutMs: 30_000 });
    expect(config.redis).toMatchObject({ commandTimeoutMs: 1_000, rateLimitFallback: 'closed' });
    const tuned = loadConfig({
      DATABASE_URL: 'postgres://u@h/db',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      REDIS_URL: 'redis://h:6379',
      RATE_LIMIT_FALLBACK: 'memory',
      REDIS_COMMAND_TIMEOUT_MS: '250',
    });
    expect(tuned.database).toMatchObject({ statementTimeoutMs: 0 });
    expect(tuned.redis).toMatchObject({ commandTimeoutMs: 250, rateLimitFallback: 'memory' });
  });
});

describe('the default PUBLIC_BASE_URL', () => {
  it('is the address the server listens on, so image URLs are on the origin the app is opened at', () => {
    expect(loadConfig({ HOST: '127.0.0.1', PORT: '9000' }).publicBaseUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ HOST: '::1' }).publicBaseUrl).toBe('http://[::1]:8787');
    expect(loadConfig({ HOST: 'images.internal' }).publicBaseUrl).toBe('http://images.internal:8787');
  });

  it('is localhost for a wildcard address, which no browser can open', () => {
    expect(listenAddressUrl('0.0.0.0', 8787)).toBe('http://localhost:8787');
    expect(listenAddressUrl('::', 8787)).toBe('http://localhost:8787');
  });
});

describe('UPLOAD_METADATA', () => {
  it('strips by default, keeps when asked, and refuses anything else naming the choices', () => {
    expect(loadConfig({}).uploadMetadata).toBe('strip');
    expect(loadConfig({ UPLOAD_METADATA: 'keep' }).uploadMetadata).toBe('keep');
    expect(() => loadConfig({ UPLOAD_METADATA: 'remove' })).toThrow(/UPLOAD_METADATA.*strip.*keep/s);
  });
});

describe('ORPHAN_SWEEP_INTERVAL', () => {
  it('takes a duration, defaults to hourly, and wins over ORPHAN_SWEEP_SECONDS', () => {
    expect(loadConfig({}).orphanSweepSeconds).toBe(3600);
    expect(loadConfig({ ORPHAN_SWEEP_INTERVAL: '15m' }).orphanSweepSeconds).toBe(900);
    expect(loadConfig({ ORPHAN_SWEEP_INTERVAL: '2h', ORPHAN_SWEEP_SECONDS: '60' }).orphanSweepSeconds).toBe(7200);
    expect(loadConfig({ ORPHAN_SWEEP_SECONDS: '60' }).orphanSweepSeconds).toBe(60);
    expect(loadConfig({ ORPHAN_SWEEP_INTERVAL: '0' }).orphanSweepSeconds).toBe(0);
  });

  it('refuses what is not a duration, naming the variable', () => {
    expect(() => loadConfig({ ORPHAN_SWEEP_INTERVAL: 'hourly' })).toThrow(/ORPHAN_SWEEP_INTERVAL: must be a duration such as 1h/);
  });
});

describe('parseConfig (any runtime)', () => {
  it("reads a Worker's bindings with the same schema and keeps paths as written, with no file system to resolve them against", () => {
    const config = parseConfig({ AUTH_MODE: 'api_key', ADMIN_API_KEY: 'igk_bindings_0123456789abcdef', DATA_DIR: 'state' });
    expect(config.dataDir).toBe('state');
    expect(config.database).toEqual({ kind: 'sqlite', file: 'state/imagegate.sqlite' });
    expect(config.adminApiKey).toBe('igk_bindings_0123456789abcdef');
  });

  it('refuses a bad binding as it refuses a bad variable, naming it', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
