import http from 'node:http';
import { listenOnLoopback } from './loopback-listen.js';
import { gunzipSync } from 'node:zlib';
// The OTLP exporters write protobuf by hand and no longer ship .proto definitions or a generated decoder
// (@opentelemetry/otlp-transformer 0.223); this is the package's own reader, and the field numbers below are those
// its writer uses (build/src/trace/protobuf/trace-serializer.js and common/protobuf/common-serializer.js, which cite
// opentelemetry/proto/trace/v1/trace.proto and common/v1/common.proto).
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js';

export type AttributeValue = string | number | boolean | readonly AttributeValue[] | null;

/** A span as received, whichever encoding it came in; ids are lowercase hex, `kind` is OTLP's (2 server, 3 client, 4 producer, 5 consumer). */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** Status code as OTLP numbers it: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  resource: Record<string, AttributeValue>;
  scope: string;
}

export interface OtlpCollector {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporters append `/v1/traces`. */
  url: string;
  spans: CollectedSpan[];
  /** The Content-Type of every export received, in order. */
  contentTypes: string[];
  close(): Promise<void>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

/** An OTLP/HTTP trace receiver on loopback: `POST /v1/traces` in http/protobuf or http/json (gzip or not), decoded and kept. */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const contentTypes: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
      contentTypes.push(contentType);
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      try {
        if (contentType === 'application/json') spans.push(...fromJson(JSON.parse(body.toString('utf8')) as JsonRequest));
        else if (contentType === 'application/x-protobuf') spans.push(...fromProtobuf(new Uint8Array(body)));
        else throw new Error(`unexpected content type ${contentType}`);
      } catch (error) {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end(error instanceof Error ? error.message : String(error));
        return;
      }
      // An empty ExportTraceServiceResponse: no partial success to report.
      if (contentType === 'application/json') res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, spans, contentTypes, close };
}

// --- http/json: OTLP's JSON mapping (hex ids, enums as numbers, 64-bit integers possibly as strings) ---

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
interface JsonKeyValue {
  key: string;
  value?: JsonAnyValue;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: JsonKeyValue[];
  status?: { code?: number; message?: string };
}
interface JsonRequest {
  resourceSpans?: { resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: { scope?: { name?: string }; spans?: JsonSpan[] }[] }[];
}

function jsonValue(value: JsonAnyValue | undefined): AttributeValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(jsonValue);
  return null;
}

const jsonAttributes = (list: JsonKeyValue[] | undefined): Record<string, AttributeValue> =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));

function fromJson(request: JsonRequest): CollectedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: span.traceId.toLowerCase(),
        spanId: span.spanId.toLowerCase(),
        parentSpanId: span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId.toLowerCase(),
        name: span.name,
        kind: span.kind ?? 0,
        attributes: jsonAttributes(span.attributes),
        status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
        resource,
        scope: scopeSpans.scope?.name ?? '',
      })),
    );
  });
}

// --- http/protobuf: ExportTraceServiceRequest ---

interface Field {
  number: number;
  /** A varint, or a fixed64 read as a double (the only fixed64 we read: AnyValue.double_value). */
  scalar?: number;
  bytes?: Uint8Array;
}

/** Every field of one message, in order. Wire types 1 and 5 (fixed64, fixed32) are stepped over by hand: the reader skips them only. */
function fields(bytes: Uint8Array): Field[] {
  const reader = new ProtobufReader(bytes);
  const out: Field[] = [];
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (wireType === 0) out.push({ number: fieldNumber, scalar: reader.readVarint() });
    else if (wireType === 2) out.push({ number: fieldNumber, bytes: reader.readBytes() });
    else if (wireType === 1) {
      out.push({ number: fieldNumber, scalar: new DataView(bytes.buffer, bytes.byteOffset + reader.pos, 8).getFloat64(0, true) });
      reader.pos += 8;
    } else reader.skip(wireType);
  }
  return out;
}

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes ?? new Uint8Array());
const hex = (bytes: Uint8Array | undefined): string => Buffer.from(bytes ?? new Uint8Array()).toString('hex');
const each = (list: Field[], number: number): Uint8Array[] =>
  list.filter((field) => field.number === number && field.bytes !== undefined).map((field) => field.bytes as Uint8Array);
const first = (list: Field[], number: number): Field | undefined => list.find((field) => field.number === number);

/** AnyValue: 1 string, 2 bool, 3 int64, 4 double, 5 ArrayValue (1: repeated AnyValue). */
function protoValue(bytes: Uint8Array | undefined): AttributeValue {
  const [field] = fields(bytes ?? new Uint8Array());
  if (field === undefined) return null;
  switch (field.number) {
    case 1:
      return text(field.bytes);
    case 2:
      return field.scalar === 1;
    case 3:
    case 4:
      return field.scalar ?? null;
    case 5:
      return each(fields(field.bytes ?? new Uint8Array()), 1).map(protoValue);
    default:
      return null;
  }
}

/** repeated KeyValue (1 key, 2 value) at `number`. */
const protoAttributes = (list: Field[], number: number): Record<string, AttributeValue> =>
  Object.fromEntries(
    each(list, number).map((kv) => {
      const parts = fields(kv);
      return [text(first(parts, 1)?.bytes), protoValue(first(parts, 2)?.bytes)];
    }),
  );

/** ExportTraceServiceRequest 1 → ResourceSpans (1 resource, 2 scope_spans) → ScopeSpans (1 scope, 2 spans) → Span. */
function fromProtobuf(body: Uint8Array): CollectedSpan[] {
  return each(fields(body), 1).flatMap((resourceSpansBytes) => {
    const resourceSpans = fields(resourceSpansBytes);
    const resource = protoAttributes(fields(first(resourceSpans, 1)?.bytes ?? new Uint8Array()), 1);
    return each(resourceSpans, 2).flatMap((scopeSpansBytes) => {
      const scopeSpans = fields(scopeSpansBytes);
      const scope = text(first(fields(first(scopeSpans, 1)?.bytes ?? new Uint8Array()), 1)?.bytes);
      return each(scopeSpans, 2).map((spanBytes) => {
        // Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes, 15 status (2 message, 3 code).
        const span = fields(spanBytes);
        const parent = first(span, 4)?.bytes;
        const status = fields(first(span, 15)?.bytes ?? new Uint8Array());
        return {
          traceId: hex(first(span, 1)?.bytes),
          spanId: hex(first(span, 2)?.bytes),
          parentSpanId: parent === undefined || parent.length === 0 ? undefined : hex(parent),
          name: text(first(span, 5)?.bytes),
          kind: first(span, 6)?.scalar ?? 0,
          attributes: protoAttributes(span, 9),
          status: { code: first(status, 3)?.scalar ?? 0, message: text(first(status, 2)?.bytes) },
          resource,
          scope,
        };
      });
    });
  });
}
