import type { GenerationEvent, GenerationEventListener, GenerationEvents } from '../../ports/generation-events.js';
import { createLatestPartials } from './latest-partials.js';

/** Listeners by generation id, and how an event reaches them. */
export interface ListenerTable {
  add(generationId: string, listener: GenerationEventListener): { first: boolean; remove: () => boolean };
  deliver(event: GenerationEvent): void;
}

/** The bookkeeping every adapter shares: `remove` answers whether that was the generation's last listener. */
export function createListenerTable(onListenerError: (error: unknown) => void): ListenerTable {
  const listeners = new Map<string, Set<GenerationEventListener>>();
  return {
    add(generationId, listener) {
      const set = listeners.get(generationId) ?? new Set<GenerationEventListener>();
      const first = set.size === 0;
      set.add(listener);
      listeners.set(generationId, set);
      return {
        first,
        remove: () => {
          set.delete(listener);
          if (set.size > 0 || listeners.get(generationId) !== set) return false;
          listeners.delete(generationId);
          return true;
        },
      };
    },
    deliver(event) {
      for (const listener of [...(listeners.get(event.generation_id) ?? [])]) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
  };
}

/**
 * Events within this process only: the embedded setup (one process accepts and runs every generation) and each
 * Workers isolate, whose watchers also read the generation's row (see awaitGeneration).
 */
export function createMemoryGenerationEvents(onListenerError: (error: unknown) => void = () => undefined): GenerationEvents {
  const table = createListenerTable(onListenerError);
  const partials = createLatestPartials();
  return {
    async publish(event) {
      partials.note(event);
      table.deliver(event);
    },
    async subscribe(generationId, listener) {
      const { remove } = table.add(generationId, listener);
      return () => void remove();
    },
    async latestPartial(generationId) {
      return partials.get(generationId);
    },
    async close() {},
  };
}
