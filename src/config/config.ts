import { parseAllowList } from '../domain/ip-addresses.js';
import type { UploadLimits } from '../domain/inputs/fair-gate.js';
import { PROVIDER_SETTINGS, type ProviderEnv } from '../adapters/providers/registry.js';
import { envSchema, type Env } from './env-schema.js';
import { infrastructureConfig, type InfrastructureConfig } from './infrastructure.js';
import { PLAIN_PATHS, type ConfigPaths } from './paths.js';

export interface Config extends InfrastructureConfig {
  port: number;
  /** Open HTTP connections at most; more are closed at once, so a flood of slow clients cannot use up file descriptors. */
  maxConnections: number;
  host: string;
  dataDir: string;
  publicBaseUrl: string;
  authMode: 'api_key' | 'ip_allowlist';
  allowedIps: readonly string[];
  clientIpHeader: string;
  adminApiKey: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  /** Model of a generation that names none (and no template). */
  defaultModel: string;
  /** Every provider's settings by environment name (registry.ts); `buildProviderSet` gives each adapter its own. */
  providerEnv: ProviderEnv;
  providers: { timeoutMs: number; maxConcurrent: number; retries: number };
  /** Files sent in (multipart): how many are received and decoded at once, per key and in all (see FairGate). */
  uploads: UploadLimits;
  /** `sweepSeconds`: how often workers queue again batch work an outage left without a job. */
  batch: { maxPrompts: number; concurrency: number; sweepSeconds: number };
  /** How often workers remove objects stored without a record, past the grace (0: at start only). */
  orphanSweepSeconds: number;
  /**
   * Whether an uploaded file's metadata (EXIF with GPS and camera, XMP, IPTC, PNG text) is removed before it is
   * stored (stripMetadataFromBytes / planMetadataStrip in src/domain/inputs/strip-metadata.ts), or kept.
   */
  uploadMetadata: 'strip' | 'keep';
  webhooks: { secret: string | undefined; retryScheduleSeconds: readonly number[]; allowPrivateNetworks: boolean };
  /** Folder of the built web app; undefined serves the package's own build. */
  webAppDir: string | undefined;
  /**
   * `/metrics` (Prometheus) is served only with a token, to scrapers that send it as a bearer token; `port` is
   * where `imagegate worker`, which has no API port, serves it.
   */
  metrics: { token: string | undefined; port: number };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses the settings once (Node's environment, or a Worker's `env` bindings: the same names and the same schema);
 * a bad setting stops start-up with a message naming it.
 */
export function parseConfig(env: Record<string, string | undefined>, paths: ConfigPaths = PLAIN_PATHS): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || 'env'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  return {
    port: e.PORT,
    maxConnections: e.MAX_CONNECTIONS,
    host: e.HOST,
    dataDir: paths.resolve(e.DATA_DIR),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? listenAddressUrl(e.HOST, e.PORT)).replace(/\/+$/, ''),
    authMode: e.AUTH_MODE,
    allowedIps: e.ALLOWED_IPS === undefined ? [] : parseAllowList(e.ALLOWED_IPS).valid,
    clientIpHeader: e.CLIENT_IP_HEADER,
    adminApiKey: e.ADMIN_API_KEY,
    logLevel: e.LOG_LEVEL,
    defaultModel: e.DEFAULT_MODEL,
    uploads: {
      perKey: e.UPLOADS_PER_KEY,
      inFlight: e.UPLOADS_IN_FLIGHT,
      decodesPerKey: e.UPLOAD_DECODES_PER_KEY,
      decodesInFlight: e.UPLOAD_DECODES_IN_FLIGHT,
      queuePerKey: e.UPLOAD_QUEUE_PER_KEY,
    },
    batch: { maxPrompts: e.BATCH_MAX_PROMPTS, concurrency: e.BATCH_CONCURRENCY, sweepSeconds: e.BATCH_SWEEP_SECONDS },
    orphanSweepSeconds: e.ORPHAN_SWEEP_INTERVAL ?? e.ORPHAN_SWEEP_SECONDS ?? 3600,
    uploadMetadata: e.UPLOAD_METADATA,
    webhooks: { secret: e.WEBHOOK_SECRET, retryScheduleSeconds: e.WEBHOOK_RETRY_SCHEDULE, allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
    providerEnv: providerEnvOf(e, paths),
    providers: { timeoutMs: e.PROVIDER_TIMEOUT_MS, maxConcurrent: e.PROVIDER_MAX_CONCURRENCY, retries: e.PROVIDER_RETRIES },
    webAppDir: e.WEB_APP_DIR === undefined ? undefined : paths.resolve(e.WEB_APP_DIR),
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    ...infrastructureConfig(e, paths),
  };
}

/**
 * The address the server listens on, as the default base of image URLs: the README opens the app at
 * http://127.0.0.1:8787, and an image URL on another origin (localhost) is one the browser will not download from
 * the page. A wildcard address (0.0.0.0, ::) is not one a browser can open, so it becomes localhost.
 */
export function listenAddressUrl(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '[::]';
  const name = wildcard ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** The providers' settings among all of them, the paths among those resolved as this runtime resolves paths. */
function providerEnvOf(env: ProviderEnv, paths: ConfigPaths): ProviderEnv {
  const given = new Map(Object.entries(env));
  const own = Object.keys(PROVIDER_SETTINGS.shape).map((name) => {
    const value = given.get(name);
    return [name, typeof value === 'string' && PROVIDER_SETTINGS.paths.includes(name) ? paths.resolve(value) : value];
  });
  // The keys are exactly the shape's, with the values it parsed (paths resolved are still strings).
  return Object.fromEntries(own) as ProviderEnv;
}
