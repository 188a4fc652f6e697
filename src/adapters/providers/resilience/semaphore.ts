/**
 * Caps concurrent calls. Waiters take turns between shares (whose call it is: an API key, a user), round robin over
 * the shares that wait, each share's own in arrival order: a key with thirty generations waiting for the provider
 * cannot keep another key's one behind them all (issue 38; the job queue is fair the same way, but a process runs
 * many more generations at once than a provider takes calls, so they wait here too). Waiters without a share are
 * one share. A waiter leaves the line if its signal aborts.
 */
export class Semaphore {
  private active = 0;
  /** Shares with waiters, in turn order: the share served last moves to the back. */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limit: number) {}

  async acquire(signal?: AbortSignal, share = ''): Promise<() => void> {
    if (this.active < this.limit) {
      this.active += 1;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const line = this.waiting.get(share);
        const index = line?.indexOf(wake) ?? -1;
        if (line !== undefined && index >= 0) {
          line.splice(index, 1);
          if (line.length === 0) this.waiting.delete(share);
        }
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted while waiting for a provider slot'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const line = this.waiting.get(share);
      if (line === undefined) this.waiting.set(share, [wake]);
      else line.push(wake);
    });
    this.active += 1;
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      this.wakeNext();
    };
  }

  /** The first share in turn order gets the slot and goes to the back if it still waits (a Map keeps insertion order). */
  private wakeNext(): void {
    const next = this.waiting.entries().next();
    if (next.done === true) return;
    const [share, line] = next.value;
    const wake = line.shift();
    this.waiting.delete(share);
    if (line.length > 0) this.waiting.set(share, line);
    wake?.();
  }
}
