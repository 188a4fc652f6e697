import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { testCpuPool } from '../../../src/test-support/harness.js';

export interface HeldProvider {
  provider: ImageProvider;
  /** Calls made so far. */
  calls: () => number;
  /** Resolves once a call is waiting to be let through. */
  started: () => Promise<void>;
  /** Lets every waiting and later call answer. */
  release: () => void;
  /** Whether a call saw its signal abort. */
  aborted: () => boolean;
}

/** The offline renderer behind a gate: each call waits until released (or aborted), so a test sees a generation running. */
export function heldProvider(id = 'local'): HeldProvider {
  const real = createProceduralProvider(testCpuPool());
  let calls = 0;
  let aborted = false;
  let open = false;
  let letThrough: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (letThrough = resolve));
  let markStarted: () => void = () => undefined;
  const startedOnce = new Promise<void>((resolve) => (markStarted = resolve));
  return {
    provider: {
      id,
      async generate(request, options) {
        calls += 1;
        markStarted();
        if (!open) {
          await new Promise<void>((resolve, reject) => {
            void gate.then(resolve);
            options?.signal?.addEventListener('abort', () => {
              aborted = true;
              reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('aborted'));
            });
          });
        }
        return real.generate(request, options);
      },
    },
    calls: () => calls,
    started: () => startedOnce,
    release: () => {
      open = true;
      letThrough();
    },
    aborted: () => aborted,
  };
}
