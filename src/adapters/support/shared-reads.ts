/**
 * Concurrent reads of the same key share one round trip without ever answering from before the caller asked.
 * A caller that arrives while a read of its key is in flight does not take that read's answer (it started before
 * the caller arrived, so it may miss a write the caller already saw acknowledged); it waits for the next read,
 * which starts when the current one ends and serves everyone who arrived meanwhile. Each answer therefore comes
 * from a read that began after its caller asked: as exact as a read of its own, at most two round trips later,
 * and under load one read per round trip per key instead of one per request.
 */
export function sharedReads<V>(read: (key: string) => Promise<V>): (key: string) => Promise<V> {
  const running = new Map<string, { current: Promise<V>; next?: Promise<V> }>();

  const start = (key: string): Promise<V> => {
    const current = read(key);
    const entry: { current: Promise<V>; next?: Promise<V> } = { current };
    running.set(key, entry);
    const settle = () => {
      // The read that waited on this one (if any) is already registered by then; otherwise the key is idle.
      if (running.get(key) === entry && entry.next === undefined) running.delete(key);
    };
    current.then(settle, settle);
    return current;
  };

  return (key) => {
    const entry = running.get(key);
    if (entry === undefined) return start(key);
    entry.next ??= entry.current.then(
      () => start(key),
      () => start(key),
    );
    return entry.next;
  };
}
