import { z } from 'zod';
import { parseAllowList } from '../domain/ip-addresses.js';
import { PROVIDER_SETTINGS } from '../adapters/providers/registry.js';
import { checkInfrastructure, infrastructureEnv } from './infrastructure.js';

const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** A count of uploads or decodes: whole, at least 1, with a default; the message says what it counts. */
const uploadSetting = (what: string, fallback: number) =>
  z.coerce
    .number({ error: `must be a whole number of ${what}, e.g. ${fallback}` })
    .int(`must be a whole number of ${what}, e.g. ${fallback}`)
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(fallback);

/**
 * Every setting by its environment name (Node's environment, or a Worker's `env` bindings: the same names), with its
 * default and the message a bad value gets. The settings of an area live in its own fragment: infrastructure.ts for
 * data, storage and queues; each provider's in its folder (merged by the provider registry).
 */
export const envSchema = z
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
    UPLOADS_PER_KEY: uploadSetting('uploads of one key received at once', 4),
    UPLOADS_IN_FLIGHT: uploadSetting('uploads received at once', 32),
    UPLOAD_DECODES_PER_KEY: uploadSetting('image decodes of one key at once', 1),
    UPLOAD_DECODES_IN_FLIGHT: uploadSetting('image decodes at once', 2),
    UPLOAD_QUEUE_PER_KEY: uploadSetting('uploads of one key waiting for their turn', 64),
    BATCH_MAX_PROMPTS: z.coerce.number().int().min(1).max(10_000).default(100),
    BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    BATCH_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
    /** 0: objects stored without a record are cleaned at start only. */
    ORPHAN_SWEEP_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .max(30 * 86_400)
      .optional(),
    /** The same as a duration (`1h`, `30m`, `90s`, or seconds); wins over ORPHAN_SWEEP_SECONDS. */
    ORPHAN_SWEEP_INTERVAL: optionalString.pipe(
      z
        .string()
        .regex(/^\d+(s|m|h|d)?$/, 'must be a duration such as 1h, 30m, 90s or a number of seconds (0: at start only)')
        .transform(durationSeconds)
        .refine((seconds) => seconds <= 30 * 86_400, 'must be at most 30 days')
        .optional(),
    ),
    /** strip: uploads lose their location, device and other metadata (pixels untouched); keep: stored byte for byte. */
    UPLOAD_METADATA: z
      .enum(['strip', 'keep'], { error: 'must be strip (the default: remove location, device and other metadata from uploads) or keep' })
      .default('strip'),
    WEBHOOK_SECRET: optionalString.pipe(
      z
        .string()
        .regex(/^(whsec_)?[A-Za-z0-9+/]{22,}={0,2}$/, 'must be a whsec_<base64> secret (at least 16 bytes)')
        .optional(),
    ),
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .trim()
      .regex(/^\d+(\s*,\s*\d+)*$/, 'must be comma-separated seconds, e.g. 0,5,300')
      .transform((text) => text.split(',').map((part) => Number(part.trim())))
      .default([0, 5, 300, 1800, 7200, 18000, 36000]),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** Each provider's own (src/adapters/providers/<p>/provider.ts), merged by the registry. */
    ...PROVIDER_SETTINGS.shape,
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(120_000),
    PROVIDER_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
    PROVIDER_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
    WEB_APP_DIR: optionalString,
    METRICS_TOKEN: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._~+/=-]{16,}$/, 'must be at least 16 characters of A-Z a-z 0-9 . _ ~ + / = - (e.g. the output of openssl rand -hex 32)')
        .optional(),
    ),
    METRICS_PORT: port.default(9464),
    ...infrastructureEnv,
  })
  .superRefine((env, ctx) => {
    checkInfrastructure(env, ctx);
    PROVIDER_SETTINGS.check(env, ctx);
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

/** `90s`, `30m`, `1h`, `2d` or a plain number of seconds, in seconds. */
function durationSeconds(text: string): number {
  const unit = text.at(-1) ?? '';
  const factor = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86_400 : 1;
  return Number.parseInt(text, 10) * factor;
}
