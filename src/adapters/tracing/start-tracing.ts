import type { Logger } from '../../ports/logger.js';
import { StartupError } from '../process/startup-error.js';
import type { OtlpProtocol, Tracing } from './tracing.js';

export type { OtlpProtocol, Tracing };

type Env = Readonly<Record<string, string | undefined>>;

const setting = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/**
 * Traces are on when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or its traces-only twin), unless the
 * standard switches turn them off (OTEL_SDK_DISABLED=true, OTEL_TRACES_EXPORTER=none).
 */
export function tracingWanted(env: Env = process.env): boolean {
  if (setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') === undefined && setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') === undefined) return false;
  if (setting(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return false;
  return setting(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase() !== 'none';
}

/** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else the specification's default, http/protobuf. */
export function otlpProtocol(env: Env = process.env): OtlpProtocol {
  const name = setting(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') === undefined ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  const protocol = setting(env, name) ?? 'http/protobuf';
  if (protocol === 'http/protobuf' || protocol === 'http/json') return protocol;
  // gRPC would need another exporter and its dependencies; an OTLP collector takes HTTP on port 4318.
  throw new StartupError(
    `${name}=${protocol} is not supported; use http/protobuf (the default) or http/json, with the collector's OTLP/HTTP endpoint (usually port 4318)`,
  );
}

/**
 * Starts OpenTelemetry tracing when the environment asks for it (see tracingWanted); otherwise loads nothing and
 * returns undefined, leaving the API's no-op tracer in place. The SDK is imported only here, on demand, so a
 * server without OTEL settings never loads it. The SDK reads the other OTEL_* settings itself (service name and
 * resource attributes, headers, timeout, sampler, batching). `version` is the service.version spans report: the
 * runtime knows it (Node reads package.json), an adapter does not.
 */
export async function startTracing(options: { logger: Logger; version: string }): Promise<Tracing | undefined> {
  if (!tracingWanted()) return undefined;
  const protocol = otlpProtocol();
  const { startNodeTracing } = await import('./node-sdk.js');
  return startNodeTracing({ protocol, logger: options.logger, version: options.version });
}
