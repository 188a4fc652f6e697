import { useEffect } from 'preact/hooks';

/** Calls `tick` every `ms` while `active`; waits for one call to finish before timing the next. */
export function usePolling(active: boolean, tick: () => Promise<unknown>, ms = 1500): void {
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const loop = async () => {
      if (stopped) return;
      await tick().catch(() => undefined);
      if (!stopped) timer = setTimeout(() => void loop(), ms);
    };
    timer = setTimeout(() => void loop(), ms);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [active]);
}
