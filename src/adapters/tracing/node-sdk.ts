import { context, diag, DiagLogLevel, propagation, trace, type DiagLogger } from '@opentelemetry/api';
import { detectResources, defaultResource, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Logger } from '../../ports/logger.js';
import type { OtlpProtocol, Tracing } from './tracing.js';

/**
 * The Node SDK: an OTLP/HTTP exporter behind a batching processor, AsyncLocalStorage for the active span, and W3C
 * trace context (plus baggage) as the propagator. Loaded by startTracing only when traces are wanted.
 */
export async function startNodeTracing(options: { protocol: OtlpProtocol; logger: Logger; version: string }): Promise<Tracing> {
  diag.setLogger(diagLogger(options.logger), { logLevel: diagLevel(process.env.OTEL_LOG_LEVEL), suppressOverrideMessage: true });
  const exporter = await openExporter(options.protocol);
  // Ours first, then what the environment says (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES), which wins.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'imagegate', [ATTR_SERVICE_VERSION]: options.version, 'process.pid': process.pid }))
    .merge(detectResources({ detectors: [envDetector] }));
  // The batching processor reads OTEL_BSP_*, the provider OTEL_TRACES_SAMPLER(_ARG) and the span limits.
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  return {
    protocol: options.protocol,
    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        context.disable();
        propagation.disable();
        diag.disable();
      }
    },
  };
}

/** The exporter's own module only: the other protocol's is never loaded. Both read the OTEL_EXPORTER_OTLP_* settings. */
async function openExporter(protocol: OtlpProtocol): Promise<SpanExporter> {
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

/** The SDK's own complaints (an export that failed, a bad setting) in the service's log. */
function diagLogger(logger: Logger): DiagLogger {
  const write =
    (level: 'error' | 'warn' | 'info' | 'debug') =>
    (message: string, ...args: unknown[]) =>
      logger[level](
        { component: 'opentelemetry', ...(args.length === 0 ? {} : { details: args.map((arg) => (arg instanceof Error ? arg.message : arg)) }) },
        message,
      );
  return { error: write('error'), warn: write('warn'), info: write('info'), debug: write('debug'), verbose: write('debug') };
}

/** OTEL_LOG_LEVEL, as the specification names its values; warnings and errors by default. */
function diagLevel(value: string | undefined): DiagLogLevel {
  switch (value?.trim().toLowerCase()) {
    case 'none':
      return DiagLogLevel.NONE;
    case 'error':
      return DiagLogLevel.ERROR;
    case 'info':
      return DiagLogLevel.INFO;
    case 'debug':
      return DiagLogLevel.DEBUG;
    case 'verbose':
    case 'all':
      return DiagLogLevel.ALL;
    default:
      return DiagLogLevel.WARN;
  }
}
