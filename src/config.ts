import path from 'node:path';
import { z } from 'zod';
import { parseAllowList } from './http/middleware/ip-allowlist.js';

const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const envSchema = z
  .object({
    PORT: port.default(8787),
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    PUBLIC_BASE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    AUTH_MODE: z.enum(['api_key', 'ip_allowlist']).default('api_key'),
    ALLOWED_IPS: optionalString,
    CLIENT_IP_HEADER: z.string().trim().min(1).default('CF-Connecting-IP'),
    ADMIN_API_KEY: optionalString,
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    CLOUDFLARE_ACCOUNT_ID: optionalString,
    CLOUDFLARE_API_TOKEN: optionalString,
    CLOUDFLARE_API_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.cloudflare.com/client/v4'),
  })
  .superRefine((env, ctx) => {
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

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicBaseUrl: string;
  authMode: 'api_key' | 'ip_allowlist';
  allowedIps: readonly string[];
  clientIpHeader: string;
  adminApiKey: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  cloudflare: { accountId: string | undefined; apiToken: string | undefined; apiBaseUrl: string };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment once; a bad setting stops start-up with a message naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || 'env'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    authMode: e.AUTH_MODE,
    allowedIps: e.ALLOWED_IPS === undefined ? [] : parseAllowList(e.ALLOWED_IPS).valid,
    clientIpHeader: e.CLIENT_IP_HEADER,
    adminApiKey: e.ADMIN_API_KEY,
    logLevel: e.LOG_LEVEL,
    cloudflare: { accountId: e.CLOUDFLARE_ACCOUNT_ID, apiToken: e.CLOUDFLARE_API_TOKEN, apiBaseUrl: e.CLOUDFLARE_API_BASE_URL.replace(/\/+$/, '') },
  };
}
