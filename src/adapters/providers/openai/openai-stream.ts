import { ProviderOutcomeUnknown, ProviderRefusal, type PartialImages } from '../../../ports/image-provider.js';
import { isRecord, stringAt } from '../http-support.js';

/*
 * OpenAI's streamed image answer, as openai-node 7.57 reads it (node_modules/openai/resources/images.d.ts:
 * `ImageGenStreamEvent` = ImageGenPartialImageEvent | ImageGenCompletedEvent, `ImageEditStreamEvent` likewise;
 * core/streaming.js parses each Server-Sent Event's `data` as JSON and treats `event: error`, or a `data` with an
 * `error`, as a failure). With `stream: true` and `partial_images: N` OpenAI sends up to N
 * `image_generation.partial_image` events ({ b64_json, partial_image_index, background, created_at, output_format,
 * quality, size }) then one `image_generation.completed` ({ b64_json, usage, ... }); edits name them
 * `image_edit.partial_image` and `image_edit.completed`. "The final image may be sent before the full number of
 * partial images are generated" (the API reference on partial_images), so fewer partials are not an error.
 */

export type StreamKind = 'image_generation' | 'image_edit';

/** One Server-Sent Event: its `event:` name (if any) and its `data:` lines joined by newlines (the SSE spec). */
interface ServerSentEvent {
  event?: string;
  data: string;
}

/** Splits a text/event-stream body into events; comments (`:`) and fields other than event and data are skipped. */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = blankLine(buffer);
      while (end !== undefined) {
        const parsed = parseEvent(buffer.slice(0, end.at));
        buffer = buffer.slice(end.at + end.length);
        if (parsed !== undefined) yield parsed;
        end = blankLine(buffer);
      }
    }
    const last = parseEvent(buffer + decoder.decode());
    if (last !== undefined) yield last;
  } finally {
    // Left early (the completed event read, or an error): the rest of the body is not wanted.
    await reader.cancel().catch(() => undefined);
  }
}

/** Where the first event ends: a blank line, in any of the three line endings SSE allows. */
function blankLine(buffer: string): { at: number; length: number } | undefined {
  const match = /\r\n\r\n|\n\n|\r\r/.exec(buffer);
  return match === null ? undefined : { at: match.index, length: match[0].length };
}

function parseEvent(block: string): ServerSentEvent | undefined {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r\n|\n|\r/)) {
    const colon = line.indexOf(':');
    if (colon === 0 || line === '') continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { ...(event === undefined ? {} : { event }), data: data.join('\n') };
}

/** OpenAI's moderation refusals: the request, not the service, and nothing was made to bill. */
const REFUSAL_CODES: ReadonlySet<string> = new Set(['moderation_blocked', 'content_policy_violation']);

/** Who is streaming (named in messages) and the codes that refuse; OpenAI's by default, Azure OpenAI's in its folder. */
export interface StreamSource {
  service: string;
  refusals?: ReadonlySet<string>;
}
const OPENAI: StreamSource = { service: 'OpenAI', refusals: REFUSAL_CODES };

/**
 * Reads the stream to its completed event, handing each partial to `partials.onPartial` as it arrives, and answers
 * the completed event. Once the request was sent, a stream that breaks or ends without that event has lost an answer
 * OpenAI may bill: ProviderOutcomeUnknown, never a second request. An abort (the deadline, a cancel) is rethrown
 * as it came, for the caller to settle as it settles any call cut off.
 */
export async function readImageStream(
  response: Response,
  kind: StreamKind,
  partials: PartialImages | undefined,
  signal: AbortSignal | undefined,
  source: StreamSource = OPENAI,
): Promise<Record<string, unknown>> {
  const service = source.service;
  if (response.body === null) throw new ProviderOutcomeUnknown(`${service} answered the stream with no body`, false);
  try {
    for await (const sse of serverSentEvents(response.body)) {
      const data = parseData(sse.data);
      const type = stringAt(data.type) ?? sse.event;
      if (sse.event === 'error' || type === 'error' || isRecord(data.error)) throw streamError(data, service, source.refusals ?? REFUSAL_CODES);
      if (type === `${kind}.partial_image`) {
        const b64 = stringAt(data.b64_json);
        const index = typeof data.partial_image_index === 'number' ? data.partial_image_index : undefined;
        if (b64 !== undefined && index !== undefined) partials?.onPartial({ index, b64_json: b64 });
      } else if (type === `${kind}.completed`) return data;
    }
  } catch (error) {
    if (signal?.aborted === true || error instanceof ProviderRefusal || error instanceof ProviderOutcomeUnknown) throw error;
    throw new ProviderOutcomeUnknown(
      `${service}'s stream broke after the request was sent (${error instanceof Error ? error.message : String(error)}); not sent again`,
      false,
    );
  }
  throw new ProviderOutcomeUnknown(`${service}'s stream ended without ${kind}.completed; not sent again`, false);
}

function parseData(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * An error event mid-stream: a moderation block is a refusal; anything else came after OpenAI took the request and
 * may have drawn (and billed) partials, so its outcome is unknown.
 */
function streamError(data: Record<string, unknown>, service: string, refusals: ReadonlySet<string>): Error {
  const error = isRecord(data.error) ? data.error : data;
  const code = stringAt(error.code) ?? stringAt(error.type);
  const detail = [stringAt(error.message), code === undefined ? undefined : `(${code})`].filter((part) => part !== undefined).join(' ');
  if (code !== undefined && refusals.has(code)) return new ProviderRefusal(`${service} refused in its stream: ${detail}`);
  return new ProviderOutcomeUnknown(`${service}'s stream ended with an error: ${detail === '' ? 'no detail' : detail}; not sent again`, false);
}
