import { ApiError } from '../errors.js';

export interface FairGateOptions {
  /** Holders at once, all keys together. */
  total: number;
  /** Holders at once for one key. */
  perKey: number;
  /** Waiters one key may have; one more is a 429. */
  queuePerKey: number;
  /** Waiters in all; one more is a 503. */
  queueTotal: number;
  /** What the work is, for the refusal's message ("uploads", "image decodes"). */
  what: string;
  /** Seconds a refused caller is told to wait. */
  retryAfterSeconds?: number;
}

interface Waiter {
  grant: () => void;
}

/** The Retry-After of a full queue: a slot frees up as soon as one upload ends, usually within seconds. */
const RETRY_AFTER_SECONDS = 2;

/**
 * At most `total` holders at once and `perKey` per key; callers past that wait their turn, taken round robin over
 * the keys that wait (each key in its own arrival order), so a key with twenty uploads queued cannot keep another
 * key's one waiting behind them. A queue that is full answers at once (429 for the key's own queue, 503 for the
 * server's) rather than letting waiters pile up without end. Per process: each server shares out its own capacity.
 */
export class FairGate {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  /** Keys with waiters, in turn order: the key served last moves to the back. */
  private readonly waiting = new Map<string, Waiter[]>();
  private waiters = 0;

  constructor(private readonly options: FairGateOptions) {}

  /** Holders and waiters now, for tests and logs. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiters };
  }

  /** Runs `work` once the key's turn comes; gives the slot back however it ends. A caller that gives up leaves the queue. */
  async run<T>(key: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(key, signal);
    try {
      return await work();
    } finally {
      this.release(key);
    }
  }

  /** Waits for a slot; `release(key)` gives it back. */
  async acquire(key: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (!this.waiting.has(key) && this.canRun(key)) {
      this.take(key);
      return;
    }
    const queue = this.waiting.get(key) ?? [];
    const retryAfterSeconds = this.options.retryAfterSeconds ?? RETRY_AFTER_SECONDS;
    if (queue.length >= this.options.queuePerKey) {
      throw new ApiError(
        'RATE_LIMITED',
        'Too many requests',
        { message: `this key has ${queue.length} ${this.options.what} waiting already; retry in ${retryAfterSeconds} seconds`, retry_after: retryAfterSeconds },
        { retryAfterSeconds },
      );
    }
    if (this.waiters >= this.options.queueTotal) {
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        'Service temporarily unavailable',
        {
          message: `the server has ${this.waiters} ${this.options.what} waiting already; retry in ${retryAfterSeconds} seconds`,
          retry_after: retryAfterSeconds,
        },
        { retryAfterSeconds },
      );
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const list = this.waiting.get(key);
        const at = list?.indexOf(waiter) ?? -1;
        if (list !== undefined && at >= 0) {
          list.splice(at, 1);
          this.waiters -= 1;
          if (list.length === 0) this.waiting.delete(key);
        }
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
      this.waiters += 1;
      this.waiting.set(key, queue);
    });
  }

  release(key: string): void {
    this.running -= 1;
    const left = (this.runningByKey.get(key) ?? 1) - 1;
    if (left === 0) this.runningByKey.delete(key);
    else this.runningByKey.set(key, left);
    this.grantNext();
  }

  private canRun(key: string): boolean {
    return this.running < this.options.total && (this.runningByKey.get(key) ?? 0) < this.options.perKey;
  }

  private take(key: string): void {
    this.running += 1;
    this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
  }

  /** Round robin: the first key in turn order that may run gets one slot, then goes to the back; repeat while slots are free. */
  private grantNext(): void {
    let granted = true;
    while (granted && this.running < this.options.total) {
      granted = false;
      for (const [key, queue] of this.waiting) {
        if (!this.canRun(key)) continue;
        const waiter = queue.shift();
        if (waiter === undefined) continue;
        this.waiters -= 1;
        this.waiting.delete(key);
        if (queue.length > 0) this.waiting.set(key, queue);
        this.take(key);
        waiter.grant();
        granted = true;
        break;
      }
    }
  }
}

/** The two gates of work on files sent in: receiving them (staging), and decoding and storing them. */
export interface UploadGates {
  receive: FairGate;
  decode: FairGate;
}

export interface UploadLimits {
  /** Multipart requests of one key received at once, and of all keys. */
  perKey: number;
  inFlight: number;
  /** Image decodes (each followed by its store) of one key at once, and of all keys. */
  decodesPerKey: number;
  decodesInFlight: number;
  /** Waiters one key may have at each gate before its requests are refused with 429. */
  queuePerKey: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { perKey: 4, inFlight: 32, decodesPerKey: 1, decodesInFlight: 2, queuePerKey: 64 };

export function createUploadGates(limits: UploadLimits): UploadGates {
  // The server's queue holds a full queue of about sixteen keys: beyond that, callers are told to come back.
  const queueTotal = limits.queuePerKey * 16;
  return {
    receive: new FairGate({ total: limits.inFlight, perKey: limits.perKey, queuePerKey: limits.queuePerKey, queueTotal, what: 'uploads' }),
    decode: new FairGate({ total: limits.decodesInFlight, perKey: limits.decodesPerKey, queuePerKey: limits.queuePerKey, queueTotal, what: 'image decodes' }),
  };
}

/** Whose turn an upload takes: its API key's, or its user's where no key is used (the IP allow-list mode). */
export const gateKey = (ctx: { userId: string; key?: { id: string } }): string => ctx.key?.id ?? ctx.userId;
