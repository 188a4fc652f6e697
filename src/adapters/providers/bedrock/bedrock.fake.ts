import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { readImageHeader } from '../../../domain/inputs/image-header.js';
import { sampleImages, type FakeOptions, type ImageFormat, type SampleImages, type StartedFake } from '../../../test-support/fake-images.js';

/*
 * A loopback stand-in for the Amazon Bedrock runtime (bedrock-runtime.{region}.amazonaws.com) as the AWS SDK for
 * JavaScript v3 calls it. Followed: @aws-sdk/client-bedrock-runtime 3.1164.0 (dist-es/schemas/schemas_0.js:
 * InvokeModel is `POST /model/{modelId}/invoke` with the body as the payload and `Content-Type`/`Accept` headers,
 * ListAsyncInvokes `GET /async-invoke?maxResults=`; every error is `{ message }` with its status and its type in
 * `x-amzn-errortype`, which the SDK reads with @smithy/core's loadRestJsonErrorCode), its runtimeConfig.js (on Node
 * the default request handler is NodeHttp2Handler: HTTP/2, cleartext for an http:// endpoint) and the InvokeModel API
 * reference (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html); the bodies and answers
 * of the Stability models as bedrock-request.ts cites them.
 *
 * It listens twice, on one state: HTTP/2 cleartext (`origin`) for the SDK's default handler on Node, and HTTP/1.1
 * (`http1Origin`) for NodeHttpHandler or fetch, which the shared suite's HTTP/1.1 fault proxy needs. Every request
 * must carry a SigV4 `Authorization` for service `bedrock` in the fake's region, as AWS requires.
 */

export const BEDROCK_FAKE_REGION = 'us-west-2';
/** The seed the fake "picks" when asked for seed 0 (random). */
export const BEDROCK_RANDOM_SEED = 2_130_420_379;
/** The type suffix Bedrock puts after the error name in `x-amzn-errortype`. */
const CORAL = ':http://internal.amazon.com/coral/com.amazon.bedrock/';

/** The models this fake serves, as Bedrock in us-west-2 does (the inpaint service through the `us.` profile). */
const MODELS: Readonly<Record<string, 'text' | 'image-to-image' | 'inpaint'>> = {
  'stability.stable-image-core-v1:1': 'text',
  'stability.stable-image-ultra-v1:1': 'text',
  'stability.sd3-5-large-v1:0': 'image-to-image',
  'us.stability.stable-image-inpaint-v1:0': 'inpaint',
};

export interface BedrockCall {
  method: string;
  /** The path as received: the SDK percent-encodes the model id's colon. */
  path: string;
  /** The model id of `/model/{modelId}/invoke`, decoded. */
  modelId?: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** `2.0` through the SDK's default handler on Node, `1.1` through NodeHttpHandler or fetch. */
  httpVersion: string;
}

export interface BedrockReply {
  json(status: number, value: unknown, headers?: Record<string, string>): void;
  /** Bedrock's error answer: the type in `x-amzn-errortype`, `{ message }` in the body. */
  error(status: number, type: string, message: string, headers?: Record<string, string>): void;
  /** Never answers (until the fake closes): a request sent and then waited on. */
  stall(): void;
  /** Breaks the connection once the request arrived: an answer lost after sending. */
  drop(): void;
}

export type BedrockResponder = (call: BedrockCall, reply: BedrockReply) => void | Promise<void>;

export interface BedrockFake extends StartedFake {
  /** HTTP/2 cleartext. */
  origin: string;
  /** HTTP/1.1, on the same state (StartedFake's `baseUrl` too, for the shared suite). */
  http1Origin: string;
  calls: BedrockCall[];
  respondWith(responder: BedrockResponder): void;
  /** The documented success again, with no calls recorded. */
  reset(): void;
}

const header = (call: BedrockCall, name: string): string => String(call.headers[name] ?? '');
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a base64 field holds an image Bedrock would read (PNG, JPEG or WebP). */
const readableImage = (value: unknown): boolean => typeof value === 'string' && readImageHeader(Buffer.from(value, 'base64')) !== undefined;

/** What Bedrock's validation says of a body its model cannot take (its "Malformed input request" wording); none when fine. */
function malformed(kind: 'text' | 'image-to-image' | 'inpaint', body: unknown): string | undefined {
  if (!isRecord(body)) return 'expected a JSON object';
  if (typeof body.prompt !== 'string' || body.prompt === '') return '#: required key [prompt] not found';
  if (body.output_format !== undefined && !['jpeg', 'png', 'webp'].includes(String(body.output_format))) return '#/output_format: not a valid enum value';
  const imageToImage = body.mode === 'image-to-image';
  if (kind === 'text' && (body.image !== undefined || body.mode === 'image-to-image')) return '#: extraneous key [image] is not permitted';
  if (kind === 'inpaint' || imageToImage) {
    if (!readableImage(body.image)) return '#/image: expected a base64 PNG, JPEG or WebP image';
    if (body.mask !== undefined && !readableImage(body.mask)) return '#/mask: expected a base64 PNG, JPEG or WebP image';
  }
  if (imageToImage && typeof body.strength !== 'number') return '#: required key [strength] not found';
  if (imageToImage && body.aspect_ratio !== undefined) return '#: extraneous key [aspect_ratio] is not permitted';
  return undefined;
}

/** The signature's scope must name this region and service `bedrock` (AWS4-HMAC-SHA256 Credential=KEY/DATE/REGION/bedrock/aws4_request). */
function unsigned(call: BedrockCall, region: string): [string, string] | undefined {
  const auth = header(call, 'authorization');
  if (!auth.startsWith('AWS4-HMAC-SHA256 Credential=') || header(call, 'x-amz-date') === '')
    return ['MissingAuthenticationTokenException', 'Missing Authentication Token'];
  if (!auth.includes(`/${region}/bedrock/aws4_request`))
    return ['InvalidSignatureException', `Credential should be scoped to a valid region and to service bedrock in ${region}.`];
  return undefined;
}

/**
 * Bedrock's documented success: `{ seeds, finish_reasons: [null], images: [base64] }` in the asked format (or
 * `answer`), the seed it used (its own for seed 0), after checking the signature and the body as Bedrock does.
 */
export function bedrockSuccess(images: SampleImages, answer?: ImageFormat, region = BEDROCK_FAKE_REGION): BedrockResponder {
  return (call, reply) => {
    const refused = unsigned(call, region);
    if (refused !== undefined) return reply.error(403, refused[0], refused[1]);
    if (call.method === 'GET' && call.path.startsWith('/async-invoke')) return reply.json(200, { asyncInvokeSummaries: [] });
    const kind = call.modelId === undefined ? undefined : MODELS[call.modelId];
    if (call.method !== 'POST' || call.modelId === undefined)
      return reply.error(404, 'UnknownOperationException', `no operation for ${call.method} ${call.path}`);
    if (kind === undefined) return reply.error(400, 'ValidationException', 'The provided model identifier is invalid.');
    const problem = malformed(kind, call.body);
    if (problem !== undefined) return reply.error(400, 'ValidationException', `Malformed input request: ${problem}, please reformat your input and try again.`);
    const body = isRecord(call.body) ? call.body : {};
    const asked = String(body.output_format ?? 'png');
    const format: ImageFormat = answer ?? (asked === 'jpeg' || asked === 'webp' ? asked : 'png');
    const seed = typeof body.seed === 'number' && body.seed !== 0 ? body.seed : BEDROCK_RANDOM_SEED;
    reply.json(200, { seeds: [seed], finish_reasons: [null], images: [images[format].toString('base64')] }, { 'x-amzn-requestid': 'req-1' });
  };
}

type Request = http.IncomingMessage | http2.Http2ServerRequest;
type Response = http.ServerResponse | http2.Http2ServerResponse;

function send(response: Response, status: number, headers: Record<string, string>, body: string): void {
  // The same call twice: TypeScript cannot call writeHead on the union of two overloaded classes.
  if (response instanceof http2.Http2ServerResponse) response.writeHead(status, headers);
  else response.writeHead(status, headers);
  response.end(body);
}

export async function startBedrockFake(options: FakeOptions & { region?: string } = {}): Promise<BedrockFake> {
  const images = await sampleImages();
  const fallback = bedrockSuccess(images, options.answer, options.region);
  let responder: BedrockResponder = fallback;
  const calls: BedrockCall[] = [];
  // Closing destroys every socket, which ends stalled answers too.
  const sockets = new Set<Socket>();

  const handle = (request: Request, response: Response): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // Kept as text, so a malformed body still shows in a failure.
      }
      const model = /^\/model\/([^/]+)\/invoke$/.exec(path)?.[1];
      const call: BedrockCall = { method: request.method ?? '', path, headers: request.headers, body, httpVersion: request.httpVersion };
      if (model !== undefined) call.modelId = decodeURIComponent(model);
      calls.push(call);
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        send(response, status, { 'content-type': 'application/json', ...headers }, JSON.stringify(value));
      const reply: BedrockReply = {
        json,
        error: (status, type, message, headers = {}) => json(status, { message }, { 'x-amzn-errortype': `${type}${CORAL}`, ...headers }),
        stall: () => undefined,
        drop: () => request.socket.destroy(),
      };
      Promise.resolve(responder(call, reply)).catch((error: unknown) => json(598, { message: `fake failed: ${String(error)}` }));
    });
  };

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const h2 = http2.createServer(handle);
  const h1 = http.createServer(handle);
  const listen = async (server: http.Server | http2.Http2Server): Promise<string> => {
    server.on('connection', track);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const [origin, http1Origin] = [await listen(h2), await listen(h1)];
  const closed = (server: http.Server | http2.Http2Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    origin,
    http1Origin,
    baseUrl: http1Origin,
    calls,
    respondWith(next) {
      responder = next;
    },
    reset() {
      calls.length = 0;
      responder = fallback;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([closed(h2), closed(h1)]);
    },
  };
}
