import { useEffect, useState } from 'preact/hooks';
import { asFailure, type ApiFailure } from '../lib/api-error.js';

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; failure: ApiFailure } | { state: 'ready'; value: T };

/** Data a page shows: loaded again when `deps` change or `reload()` is called; a late answer never wins over a newer one. */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): { loaded: Loaded<T>; reload: () => void; set: (value: T) => void } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setLoaded({ state: 'ready', value });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed', failure: asFailure(error) });
      },
    );
    return () => controller.abort();
  }, [...deps, generation]);
  return { loaded, reload: () => setGeneration((n) => n + 1), set: (value) => setLoaded({ state: 'ready', value }) };
}
