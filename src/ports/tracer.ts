import {
  context,
  isSpanContextValid,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * Tracing as the domain and the HTTP layer use it, on the OpenTelemetry API alone (runtime-neutral, no SDK).
 * Until an SDK registers itself (src/adapters/tracing, only when OTEL_EXPORTER_OTLP_*ENDPOINT is set), every
 * call here goes to the API's no-op tracer and propagator: no span is recorded, nothing is carried.
 */
export const TRACER_NAME = 'imagegate';

/** W3C trace context as text headers (`traceparent`, `tracestate`): how a trace crosses a queue or an HTTP call. */
export type TraceCarrier = Record<string, string>;

export type SpanKindName = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

const KINDS: Record<SpanKindName, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

export interface InSpanOptions {
  kind?: SpanKindName;
  attributes?: Attributes;
  /** Continue this carried context instead of the active one (a queued job continues its producer's trace). */
  parent?: Context;
}

const tracer = () => trace.getTracer(TRACER_NAME);

/**
 * Whether a tracer provider is installed: until one is (OTEL_EXPORTER_OTLP_ENDPOINT unset), the API hands out no-op
 * spans, and a hot path may skip making them at all.
 */
export function tracingEnabled(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer(TRACER_NAME) !== undefined;
}

/**
 * Runs `work` inside a new active span, ended when it settles; a throw is recorded on the span (status ERROR)
 * and re-thrown unchanged.
 */
export async function inSpan<T>(name: string, options: InSpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: options.attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Records a failure on a span without ending it. */
export function markFailed(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The active context as headers to carry along; empty when tracing is off or nothing is active. */
export function currentTraceCarrier(): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * The context a carrier names, on top of the root context: work taken from a queue must not inherit whatever
 * happened to be active where the queue polled (another job, a request that enqueued).
 */
export function contextFromCarrier(carrier: Readonly<Record<string, string | undefined>> | undefined): Context {
  if (carrier === undefined) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, {
    keys: (value) => Object.keys(value),
    get: (value, key) => value[key.toLowerCase()] ?? value[key],
  });
}

/**
 * `traceId` and `spanId` of the active span, for log lines; no fields when none is active (always, with tracing off).
 * A new object every call: pino's mixin merges the line's own fields into what it is given.
 */
export function activeTraceFields(): { traceId?: string; spanId?: string } {
  const span = trace.getSpan(context.active());
  if (span === undefined) return {};
  const spanContext = span.spanContext();
  return isSpanContextValid(spanContext) ? { traceId: spanContext.traceId, spanId: spanContext.spanId } : {};
}
