import type { GenerationEvent } from '../../ports/generation-events.js';

/** The events after which a generation has no partial worth showing: its end. */
const ENDS = new Set<string>(['generation.completed', 'generation.failed', 'generation.cancelled']);

/** What an adapter does with a published event to keep a generation's latest partial image. */
export type PartialEffect = 'keep' | 'forget' | 'none';

export function partialEffectOf(event: GenerationEvent): PartialEffect {
  if (event.type === 'generation.partial_image') return 'keep';
  return ENDS.has(event.type) ? 'forget' : 'none';
}

/** In one process: the latest partial of each running generation, dropped when it ends. */
export interface LatestPartials {
  note(event: GenerationEvent): void;
  get(generationId: string): GenerationEvent | undefined;
}

/**
 * Bounded, so generations whose end this process never hears (run elsewhere, or a lost event) cannot grow it for
 * ever: past the bound the oldest-kept generation's partial goes first.
 */
export function createLatestPartials(max = 500): LatestPartials {
  const kept = new Map<string, GenerationEvent>();
  return {
    note(event) {
      const effect = partialEffectOf(event);
      if (effect === 'none') return;
      kept.delete(event.generation_id);
      if (effect === 'forget') return;
      kept.set(event.generation_id, event);
      if (kept.size > max) {
        const oldest = kept.keys().next().value;
        if (oldest !== undefined) kept.delete(oldest);
      }
    },
    get: (generationId) => kept.get(generationId),
  };
}
