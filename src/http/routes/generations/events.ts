import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { pollDelay } from '../../../domain/generations/await-generation.js';
import { EVENT_OF_STATUS, FINAL_EVENTS, toGenerationRecord } from '../../../domain/generations/generation-record.js';
import { notFound } from '../../../domain/errors.js';
import type { GenerationEvent } from '../../../ports/generation-events.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { GenerationIdParamSchema } from './schemas.js';

const route = createRoute({
  operationId: 'streamGenerationEvents',
  method: 'get',
  path: '/api/generations/{id}/events',
  ...requires('read'),
  tags: ['Generations'],
  summary: "A generation's events as Server-Sent Events, from its current state to its end",
  description:
    'The first event is the current state (`generation.queued`, `generation.started`, or the final one), carrying the whole generation; then `generation.progress` (`{ progress, message? }`: 0 to 1, never going back, at most 4 a second) where the provider reports it, `generation.partial_image` (`{ index, b64_json }`) where the model streams them, and one of `generation.completed` (`{ image }`), `generation.failed` or `generation.cancelled` (`{ error }`), after which the stream ends. A client that reconnects (with or without `Last-Event-ID`) gets the current state first, then the latest partial image of a running generation, so nothing it missed is needed.',
  request: { params: GenerationIdParamSchema },
  responses: { 200: { content: { 'text/event-stream': { schema: z.string() } }, description: 'The event stream' }, ...errorResponses },
});

/** Not sent to callers: how a cancel reaches the worker that runs the generation. */
const INTERNAL = new Set(['generation.cancel_requested', 'generation.retrying']);

export const registerGenerationEvents: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const ctx = requestContext(c);
    const first = await deps.db.generations.find(ctx.userId, id);
    if (first === undefined) throw notFound('Generation', 'generation_id', id);
    return streamSSE(c, async (stream) => {
      const pending: GenerationEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = await deps.events.subscribe(id, (event) => {
        if (INTERNAL.has(event.type)) return;
        pending.push(event);
        wake?.();
      });
      let sequence = 0;
      const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data), id: String((sequence += 1)) });
      try {
        // Read after subscribing, so no change between the two is missed: the current state first.
        let row = (await deps.db.generations.findAny(id)) ?? first;
        let last = EVENT_OF_STATUS[row.status];
        await send(last, await toGenerationRecord(deps, row));
        // A watcher arriving after the model streamed its partials sees the latest one at once, not a blank until the end.
        if (!FINAL_EVENTS.has(last)) {
          const partial = await deps.events.latestPartial(id);
          if (partial !== undefined && !pending.some((event) => event.type === 'generation.partial_image')) await send(partial.type, partial.data);
        }
        for (let reads = 0; !FINAL_EVENTS.has(last) && !stream.aborted; reads += 1) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, pollDelay(reads));
            function done(): void {
              clearTimeout(timer);
              wake = undefined;
              resolve();
            }
            wake = done;
          });
          for (const event of pending.splice(0)) {
            last = event.type;
            await send(event.type, FINAL_EVENTS.has(event.type) ? await toGenerationRecord(deps, (await deps.db.generations.findAny(id)) ?? row) : event.data);
            if (FINAL_EVENTS.has(last)) break;
          }
          if (FINAL_EVENTS.has(last)) break;
          // No event reaches this process when the work runs in another without Redis: the row says what changed.
          const now = await deps.db.generations.findAny(id);
          if (now !== undefined && EVENT_OF_STATUS[now.status] !== EVENT_OF_STATUS[row.status]) {
            row = now;
            last = EVENT_OF_STATUS[now.status];
            await send(last, await toGenerationRecord(deps, now));
          }
        }
      } finally {
        unsubscribe();
      }
    });
  });
};
