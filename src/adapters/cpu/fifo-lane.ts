import type { TransferListItem } from 'node:worker_threads';
import type { Piscina } from 'piscina';

/** One task for a lane: the export of cpu-tasks to call, its argument and what is moved with it (buffers, a port). */
export interface LaneTask {
  name: string;
  task: unknown;
  transferList?: TransferListItem[];
}

/**
 * Runs tasks on a piscina pool in the order they arrive, at most `slots` at a time (one per thread), so piscina's
 * own queue stays empty. Piscina alone served submitters unfairly under load (one thread, eight submitters: three
 * got one task in five seconds, the others 25 each): a caller's next task could overtake tasks queued before it.
 * Here a finished task's slot goes to the oldest waiting task before its caller hears back, so a caller that submits
 * again at once joins the back of the line.
 *
 * A caller that gives up stops waiting at once. A task not yet started is dropped; one already running is left to
 * finish and only its result is dropped: piscina ends a thread to abort a running task, and starting another costs
 * a few hundred milliseconds of CPU (sharp's load) that every later task would wait for.
 */
export interface FifoLane {
  run(task: LaneTask, signal: AbortSignal | undefined): Promise<unknown>;
}

interface Entry extends LaneTask {
  resolve(value: unknown): void;
  reject(reason: unknown): void;
  /** Set once the caller has its answer (or gave up): later outcomes are dropped. */
  settled: boolean;
}

export function createFifoLane(pool: () => Piscina, slots: number): FifoLane {
  const waiting: Entry[] = [];
  let running = 0;

  function pump(): void {
    while (running < slots) {
      const entry = waiting.shift();
      if (entry === undefined) return;
      if (entry.settled) continue;
      let started: Promise<unknown>;
      try {
        // No signal for piscina: aborting there would end the thread mid-task.
        started = pool().run(entry.task, { name: entry.name, transferList: entry.transferList });
      } catch (error) {
        entry.reject(error);
        continue;
      }
      running += 1;
      started.then(
        (value: unknown) => finished(() => entry.resolve(value)),
        (error: unknown) => finished(() => entry.reject(error)),
      );
    }
  }

  // The slot is handed on before the caller is answered: see the interface's note on order.
  function finished(answer: () => void): void {
    running -= 1;
    pump();
    answer();
  }

  return {
    run(task, signal) {
      return new Promise<unknown>((resolve, reject) => {
        if (signal?.aborted === true) {
          reject(signal.reason);
          return;
        }
        const stopWaiting = () => {
          entry.settled = true;
          reject(signal?.reason);
        };
        const done = () => {
          entry.settled = true;
          signal?.removeEventListener('abort', stopWaiting);
        };
        const entry: Entry = {
          ...task,
          settled: false,
          resolve: (value) => {
            if (entry.settled) return;
            done();
            resolve(value);
          },
          reject: (reason) => {
            if (entry.settled) return;
            done();
            reject(reason);
          },
        };
        signal?.addEventListener('abort', stopWaiting, { once: true });
        waiting.push(entry);
        pump();
      });
    },
  };
}
