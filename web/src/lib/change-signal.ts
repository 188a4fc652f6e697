import { useEffect, useReducer } from 'preact/hooks';

/*
 * The router, the pending deletes and this session's Generate results each keep their state at module level, outside
 * any component, so that it survives moving between pages. Each needs the same small mechanism to let the components
 * showing that state render again when it changes; this is it, written once.
 */

export interface ChangeSignal {
  /** Call after changing the state: every component following it renders again. */
  notify: () => void;
  /** A hook: the calling component renders again on every `notify`, until it unmounts. */
  useChanges: () => void;
}

export function changeSignal(): ChangeSignal {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of listeners) listener();
    },
    useChanges: () => {
      const [, rerender] = useReducer((count: number) => count + 1, 0);
      useEffect(() => {
        const listener = () => rerender(undefined);
        listeners.add(listener);
        return () => {
          listeners.delete(listener);
        };
      }, []);
    },
  };
}
