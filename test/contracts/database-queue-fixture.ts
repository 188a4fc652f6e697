import type { KyselyPlugin } from 'kysely';
import { pino } from 'pino';
import type { KyselyDatabase } from '../../src/adapters/db/kysely-database.js';
import { createDatabaseQueue } from '../../src/adapters/queue/database-queue.js';
import type { JobQueue } from '../../src/ports/job-queue.js';
import { createTestClock } from '../../src/test-support/harness.js';
import { CONTRACT_RETRY, type QueueFixture } from './job-queue.contract.js';

/** Clock time a lease lasts. */
const LEASE_MS = 600;
/** Real time between renewals. */
const RENEW_EVERY_MS = 50;
/** Clock time one step of passSeveralLeases moves; less than a lease, so one step alone never ends a renewed lease. */
const STEP_MS = 200;
/** Long enough for the contract's handlers that do finish; only one that never does is handed back. */
const HAND_BACK_AFTER_MS = 1_000;

/** Cuts a queue off its database the way kill -9 does: every later statement of that process fails before it runs. */
export function killSwitch(): { plugin: KyselyPlugin; kill(): void } {
  let dead = false;
  return {
    plugin: {
      transformQuery(args) {
        if (dead) throw new Error('this worker process was killed');
        return args.node;
      },
      transformResult: async (args) => args.result,
    },
    kill: () => {
      dead = true;
    },
  };
}

export interface DatabaseQueueFixtureOptions {
  /** The first worker process's database. */
  db: KyselyDatabase;
  /** Another process's connection to the same database: its own pool on PostgreSQL, the same connection for SQLite in memory. */
  connect(): Promise<KyselyDatabase>;
  exclusive?: boolean;
}

/**
 * Database queues as worker processes on one database, on a test clock that moves only when told, so
 * no lease runs out unless a test lets it.
 */
export async function databaseQueueFixture(options: DatabaseQueueFixtureOptions): Promise<QueueFixture> {
  await options.db.migrate();
  const clock = createTestClock();
  const logger = pino({ level: 'silent' });
  const connections = new Set<KyselyDatabase>();
  const processes = new Map<JobQueue, { kill(): void; killed: boolean }>();
  const start = (db: KyselyDatabase): JobQueue => {
    const cut = killSwitch();
    const queue = createDatabaseQueue({
      db: db.kysely.withPlugin(cut.plugin),
      dialect: db.dialect,
      clock,
      logger,
      pollMs: 10,
      leaseMs: LEASE_MS,
      renewEveryMs: RENEW_EVERY_MS,
      exclusive: options.exclusive,
      handBackAfterMs: HAND_BACK_AFTER_MS,
      retry: CONTRACT_RETRY,
    });
    processes.set(queue, { kill: cut.kill, killed: false });
    return queue;
  };
  const first = start(options.db);
  const kill = (queue: JobQueue) => {
    const process = processes.get(queue);
    if (process === undefined) throw new Error('not a queue of this fixture');
    process.kill();
    process.killed = true;
  };
  const outliveLease = async () => clock.advance(LEASE_MS + 1);
  const another = async () => {
    const db = await options.connect();
    if (db !== options.db) connections.add(db);
    return start(db);
  };
  return {
    queue: first,
    advance: (ms) => clock.advance(ms),
    reopen: async () => {
      // Died, and restarted no sooner than its leases ran out (or at once: an exclusive worker takes them back).
      kill(first);
      await outliveLease();
      return another();
    },
    peer: another,
    leases: {
      kill,
      outliveLease,
      passSeveralLeases: async () => {
        // Step by step, each time waiting until every running job's lease was renewed from the new time: a
        // lease then never runs out while its worker renews, however slow the machine, and always when it does not.
        for (let elapsed = 0; elapsed < 3 * LEASE_MS; elapsed += STEP_MS) {
          clock.advance(STEP_MS);
          const renewedUntil = new Date(clock.now().getTime() + LEASE_MS).toISOString();
          const deadline = Date.now() + 10_000;
          for (;;) {
            const stale = await options.db.kysely
              .selectFrom('jobs')
              .select('id')
              .where('status', '=', 'running')
              .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', renewedUntil)]))
              .executeTakeFirst();
            if (stale === undefined) break;
            if (Date.now() > deadline) throw new Error(`the lease of job ${stale.id} was not renewed`);
            await new Promise((resolve) => setTimeout(resolve, RENEW_EVERY_MS / 2));
          }
        }
      },
    },
    close: async () => {
      // A killed process's close would only fail against its cut connection; it is not waited for.
      const live = [...processes].filter(([, process]) => !process.killed).map(([queue]) => queue);
      for (const [queue, process] of processes) if (process.killed) void queue.close();
      await Promise.all(live.map((queue) => queue.close()));
      for (const db of connections) await db.close();
      await options.db.close();
    },
  };
}
