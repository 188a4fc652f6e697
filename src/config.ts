import { z } from 'zod';
import { parseAllowList } from './http/middleware/ip-allowlist.js';
import { checkInfrastructure, infrastructureConfig, infrastructureEnv, type InfrastructureConfig } from './config/infrastructure.js';

const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const baseUrl = (fallback: string) =>
  z
    .url({ protocol: /^https?$/ })
    .default(fallback)
    .transform((url) => url.replace(/\/+$/, ''));

const envSchema = z
  .object({
    PORT: port.default(8787),
    MAX_CONNECTIONS: z.coerce
      .number({ error: 'must be a whole number of connections, e.g. 1000' })
      .int('must be a whole number of connections, e.g. 1000')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000; the limit of open files (ulimit -n) is the real ceiling')
      .default(1000),
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    PUBLIC_BASE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    AUTH_MODE: z.enum(['api_key', 'ip_allowlist']).default('api_key'),
    ALLOWED_IPS: optionalString,
    CLIENT_IP_HEADER: z.string().trim().min(1).default('CF-Connecting-IP'),
    ADMIN_API_KEY: optionalString,
    DEFAULT_MODEL: z.string().trim().min(1).default('local/procedural'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    CLOUDFLARE_ACCOUNT_ID: optionalString,
    CLOUDFLARE_API_TOKEN: optionalString,
    BATCH_MAX_PROMPTS: z.coerce.number().int().min(1).max(10_000).default(100),
    BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    BATCH_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
    /** 0: objects stored without a record are cleaned at start only. */
    ORPHAN_SWEEP_SECONDS: z.coerce.number().int().min(0).max(30 * 86_400).optional(),
    /** The same as a duration (`1h`, `30m`, `90s`, or seconds); wins over ORPHAN_SWEEP_SECONDS. */
    ORPHAN_SWEEP_INTERVAL: optionalString.pipe(
      z
        .string()
        .regex(/^\d+(s|m|h|d)?$/, 'must be a duration such as 1h, 30m, 90s or a number of seconds (0: at start only)')
        .transform(durationSeconds)
        .refine((seconds) => seconds <= 30 * 86_400, 'must be at most 30 days')
        .optional(),
    ),
    WEBHOOK_SECRET: optionalString.pipe(
      z.string().regex(/^(whsec_)?[A-Za-z0-9+/]{22,}={0,2}$/, 'must be a whsec_<base64> secret (at least 16 bytes)').optional(),
    ),
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .trim()
      .regex(/^\d+(\s*,\s*\d+)*$/, 'must be comma-separated seconds, e.g. 0,5,300')
      .transform((text) => text.split(',').map((part) => Number(part.trim())))
      .default([0, 5, 300, 1800, 7200, 18000, 36000]),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
    CLOUDFLARE_API_BASE_URL: baseUrl('https://api.cloudflare.com/client/v4'),
    OPENAI_API_KEY: optionalString,
    OPENAI_BASE_URL: baseUrl('https://api.openai.com'),
    REPLICATE_API_TOKEN: optionalString,
    REPLICATE_BASE_URL: baseUrl('https://api.replicate.com'),
    STABILITY_API_KEY: optionalString,
    STABILITY_BASE_URL: baseUrl('https://api.stability.ai'),
    FAL_KEY: optionalString,
    FAL_BASE_URL: baseUrl('https://queue.fal.run'),
    A1111_BASE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    A1111_MODELS: optionalString,
    A1111_USERNAME: optionalString,
    A1111_PASSWORD: optionalString,
    COMFYUI_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    COMFYUI_WORKFLOWS: optionalString,
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(120_000),
    PROVIDER_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
    PROVIDER_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
    WEB_APP_DIR: optionalString,
    METRICS_TOKEN: optionalString.pipe(
      z.string().regex(/^[A-Za-z0-9._~+/=-]{16,}$/, 'must be at least 16 characters of A-Z a-z 0-9 . _ ~ + / = - (e.g. the output of openssl rand -hex 32)').optional(),
    ),
    METRICS_PORT: port.default(9464),
    ...infrastructureEnv,
  })
  .superRefine((env, ctx) => {
    checkInfrastructure(env, ctx);
    if ((env.A1111_USERNAME === undefined) !== (env.A1111_PASSWORD === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['A1111_PASSWORD'], message: 'set A1111_USERNAME and A1111_PASSWORD together (the --api-auth user:password of your server), or neither' });
    }
    if (env.AUTH_MODE !== 'ip_allowlist') return;
    if (env.ALLOWED_IPS === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['ALLOWED_IPS'],
        message: 'AUTH_MODE=ip_allowlist needs ALLOWED_IPS, a comma-separated list of IPv4/IPv6 addresses',
      });
      return;
    }
    const parsed = parseAllowList(env.ALLOWED_IPS);
    if (parsed.invalid.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['ALLOWED_IPS'],
        message: `not IP addresses: ${parsed.invalid.map((entry) => JSON.stringify(entry)).join(', ')}`,
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export type ProviderEnv = Pick<
  Env,
  | 'CLOUDFLARE_ACCOUNT_ID'
  | 'CLOUDFLARE_API_TOKEN'
  | 'CLOUDFLARE_API_BASE_URL'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'REPLICATE_API_TOKEN'
  | 'REPLICATE_BASE_URL'
  | 'STABILITY_API_KEY'
  | 'STABILITY_BASE_URL'
  | 'FAL_KEY'
  | 'FAL_BASE_URL'
  | 'A1111_BASE_URL'
  | 'A1111_MODELS'
  | 'A1111_USERNAME'
  | 'A1111_PASSWORD'
  | 'COMFYUI_URL'
  | 'COMFYUI_WORKFLOWS'
>;

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
  /** Raw provider settings by environment name; `buildProviders` reads what each adapter needs. */
  providerEnv: ProviderEnv;
  providers: { timeoutMs: number; maxConcurrent: number; retries: number };
  /** `sweepSeconds`: how often workers queue again batch work an outage left without a job. */
  batch: { maxPrompts: number; concurrency: number; sweepSeconds: number };
  /** How often workers remove objects stored without a record, past the grace (0: at start only). */
  orphanSweepSeconds: number;
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
 * How a runtime turns the paths in settings (DATA_DIR, COMFYUI_WORKFLOWS, WEB_APP_DIR, a sqlite: URL) into the
 * paths its adapters open: absolute against the working directory on Node (runtimes/node/config.ts), as written
 * on Workers, which has no file system and uses none of them.
 */
export interface ConfigPaths {
  resolve(path: string): string;
  join(directory: string, file: string): string;
}

/** Paths kept as written, joined with a slash: for runtimes without a file system. */
export const PLAIN_PATHS: ConfigPaths = {
  resolve: (path) => path,
  join: (directory, file) => `${directory.replace(/\/+$/, '')}/${file}`,
};

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
    batch: { maxPrompts: e.BATCH_MAX_PROMPTS, concurrency: e.BATCH_CONCURRENCY, sweepSeconds: e.BATCH_SWEEP_SECONDS },
    orphanSweepSeconds: e.ORPHAN_SWEEP_INTERVAL ?? e.ORPHAN_SWEEP_SECONDS ?? 3600,
    webhooks: { secret: e.WEBHOOK_SECRET, retryScheduleSeconds: e.WEBHOOK_RETRY_SCHEDULE, allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
    providerEnv: {
      CLOUDFLARE_ACCOUNT_ID: e.CLOUDFLARE_ACCOUNT_ID,
      CLOUDFLARE_API_TOKEN: e.CLOUDFLARE_API_TOKEN,
      CLOUDFLARE_API_BASE_URL: e.CLOUDFLARE_API_BASE_URL,
      OPENAI_API_KEY: e.OPENAI_API_KEY,
      OPENAI_BASE_URL: e.OPENAI_BASE_URL,
      REPLICATE_API_TOKEN: e.REPLICATE_API_TOKEN,
      REPLICATE_BASE_URL: e.REPLICATE_BASE_URL,
      STABILITY_API_KEY: e.STABILITY_API_KEY,
      STABILITY_BASE_URL: e.STABILITY_BASE_URL,
      FAL_KEY: e.FAL_KEY,
      FAL_BASE_URL: e.FAL_BASE_URL,
      A1111_BASE_URL: e.A1111_BASE_URL?.replace(/\/+$/, ''),
      A1111_MODELS: e.A1111_MODELS,
      A1111_USERNAME: e.A1111_USERNAME,
      A1111_PASSWORD: e.A1111_PASSWORD,
      COMFYUI_URL: e.COMFYUI_URL?.replace(/\/+$/, ''),
      COMFYUI_WORKFLOWS: e.COMFYUI_WORKFLOWS === undefined ? undefined : paths.resolve(e.COMFYUI_WORKFLOWS),
    },
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

/** `90s`, `30m`, `1h`, `2d` or a plain number of seconds, in seconds. */
function durationSeconds(text: string): number {
  const unit = text.at(-1) ?? '';
  const factor = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86_400 : 1;
  return Number.parseInt(text, 10) * factor;
}
