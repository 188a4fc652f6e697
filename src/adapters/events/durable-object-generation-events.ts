import { DurableObject, type WebSocketPairConstructor, type WorkerWebSocket } from 'cloudflare:workers';
import type { GenerationEvent, GenerationEvents } from '../../ports/generation-events.js';
import type { Logger } from '../../ports/logger.js';
import { burstWarning } from '../support/burst-warning.js';
import { partialEffectOf } from './latest-partials.js';

/**
 * One generation's events on Workers (one object per generation, by name): whichever isolate runs the generation (the
 * Queue consumer) publishes here, and every isolate with a watcher (an SSE stream, a caller waiting, the consumer
 * listening for a cancel) holds a WebSocket to it. Hibernatable sockets: an object with watchers and nothing to say
 * costs no duration. The latest partial image is kept in memory for watchers who arrive later; an object evicted
 * meanwhile forgets it, which the port allows (events are hints, the row is the truth).
 */
export class GenerationEventHub extends DurableObject {
  private partial: string | undefined;

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade') !== 'websocket') return new Response('a generation event hub answers WebSocket upgrades only', { status: 426 });
    const pair = new (globalThis as unknown as { WebSocketPair: WebSocketPairConstructor }).WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    // `webSocket` is Workers' extension of ResponseInit: the caller's end of the pair.
    return new Response(null, { status: 101, webSocket: pair[0] } as ResponseInit);
  }

  async publish(message: string, effect: 'keep' | 'forget' | 'none'): Promise<void> {
    if (effect === 'keep') this.partial = message;
    if (effect === 'forget') this.partial = undefined;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(message);
      } catch {
        // A socket closing as we send: its watcher reads the generation's row.
      }
    }
  }

  async latestPartial(): Promise<string | undefined> {
    return this.partial;
  }

  override async webSocketClose(socket: WorkerWebSocket, code: number): Promise<void> {
    // 1005/1006 say no code was sent; a close frame must carry a code of its own.
    socket.close(code === 1005 || code === 1006 ? 1000 : code, 'watcher left');
  }
}

/** The part of the namespace binding this adapter uses (`DurableObjectNamespace<GenerationEventHub>`). */
export interface GenerationEventHubs {
  idFromName(name: string): unknown;
  get(id: unknown): {
    fetch(input: string, init?: RequestInit): Promise<Response>;
    publish(message: string, effect: 'keep' | 'forget' | 'none'): Promise<void>;
    latestPartial(): Promise<string | undefined>;
  };
}

/**
 * Generation events across isolates through one GenerationEventHub per generation. Each subscription holds a socket of
 * its own, opened in the request that subscribes: Workers binds a socket to the request that opened it, so one shared
 * by two requests' watchers would fail the second once the first ended.
 */
export function createDurableObjectGenerationEvents(hubs: GenerationEventHubs, logger: Logger): GenerationEvents {
  const hub = (generationId: string) => hubs.get(hubs.idFromName(generationId));
  const warn = burstWarning(logger, 'the generation event hub failed; waiting callers fall back to reading the database');
  const open = new Set<WorkerWebSocket>();

  return {
    async publish(event) {
      try {
        await hub(event.generation_id).publish(JSON.stringify(event), partialEffectOf(event));
      } catch (error) {
        warn(error);
      }
    },
    async subscribe(generationId, listener) {
      let socket: WorkerWebSocket | undefined;
      try {
        const response = await hub(generationId).fetch('https://generation-events/watch', { headers: { Upgrade: 'websocket' } });
        socket = (response as Response & { webSocket?: WorkerWebSocket | null }).webSocket ?? undefined;
        if (socket === undefined) throw new Error(`the generation event hub answered ${response.status} instead of a WebSocket`);
      } catch (error) {
        // The watcher reads the generation's row meanwhile, as during any outage.
        warn(error);
        return () => undefined;
      }
      const watching = socket;
      watching.accept();
      open.add(watching);
      watching.addEventListener('message', (message) => {
        try {
          listener(JSON.parse(String(message.data)) as GenerationEvent);
        } catch (error) {
          logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'a generation event listener failed');
        }
      });
      watching.addEventListener('close', () => open.delete(watching));
      return () => {
        if (!open.delete(watching)) return;
        try {
          watching.close(1000, 'no more watchers');
        } catch (error) {
          warn(error);
        }
      };
    },
    async latestPartial(generationId) {
      try {
        const message = await hub(generationId).latestPartial();
        return message === undefined ? undefined : (JSON.parse(message) as GenerationEvent);
      } catch (error) {
        warn(error);
        return undefined;
      }
    },
    async close() {
      for (const socket of open) socket.close(1001, 'shutting down');
      open.clear();
    },
  };
}
