import fs from 'node:fs';

/** Syncs a file's data to the disk, in libuv's thread pool: the event loop goes on serving meanwhile. */
const fdatasync = (fd: number): Promise<void> =>
  new Promise((resolve, reject) => {
    fs.fdatasync(fd, (error) => (error === null ? resolve() : reject(error)));
  });

/**
 * SQLite runs with `synchronous = NORMAL` in WAL mode: a commit is safe from an application crash (kill -9) at once,
 * and from a power cut or an OS crash once the WAL is next synced (at the latest, the next checkpoint). That spares
 * every commit an fsync (1 to 2 ms here, blocking the event loop, 6 to 8 of them on a generate's path) at the cost
 * of the last moments' commits on a power cut.
 *
 * The ledger asks for more where it must (charges-repository.ts): once a charge is reserved before a paid call, and
 * once a provider's job id is journaled, it waits on this, which syncs the WAL, so a call that may cost money is on
 * disk before it is made. The sync runs in the thread pool, not on the event loop, and callers asking while one is
 * under way share the next one (a sync that started before their commit would not cover it).
 */
export function walSyncer(file: string, sync: (fd: number) => Promise<void> = fdatasync): () => Promise<void> {
  if (file === ':memory:') return () => Promise.resolve();
  let walFd: number | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    // The WAL exists from the first commit; SQLite keeps the same file (rewinding it after a checkpoint) while open.
    walFd ??= fs.openSync(`${file}-wal`, 'r');
    const syncing = sync(walFd).finally(() => {
      if (running === syncing) running = undefined;
    });
    running = syncing;
    return syncing;
  };
  return () => {
    if (running === undefined) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}
