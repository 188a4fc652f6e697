import { isDependencyUnavailable } from '../../ports/dependency-unavailable.js';
import type { Logger } from '../../ports/logger.js';
import { StartupError, errorCode } from '../process/startup-error.js';

/** How long start-up keeps trying when a database that answered drops the connection (a restart, a failover). */
const STARTUP_DROP_WAIT_MS = 20_000;

/** The code of the error or of what caused it (an adapter's DependencyUnavailable wraps the driver's error). */
const rootCode = (error: unknown): string | undefined =>
  errorCode(error) ?? (error instanceof Error && error.cause !== undefined ? rootCode(error.cause) : undefined);

/**
 * Start-up work on the database (migrating, seeding), tried again while connections drop: a server that is
 * restarting answers in a moment, and a fleet should not crash-loop for it. A server nobody answers for
 * (refused, no such host) fails at once, so a wrong DATABASE_URL is said in one line rather than after a wait.
 */
export async function throughDrops<T>(operation: () => Promise<T>, logger: Logger | undefined): Promise<T> {
  const deadline = Date.now() + STARTUP_DROP_WAIT_MS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      const code = rootCode(error) ?? '';
      if (!isDependencyUnavailable(error) || code === 'ECONNREFUSED' || code === 'ENOTFOUND' || Date.now() > deadline) throw error;
      logger?.warn({ err: error.message, attempt }, 'the database dropped the connection while starting; trying again');
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2_000)));
    }
  }
}

/** What an operator fixes (server down, wrong password, no such database) as one line; anything else as it is. */
export function postgresStartupError(error: unknown, where: string): unknown {
  const code = rootCode(error) ?? '';
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'nothing answers at that address; start PostgreSQL or fix the host and port in DATABASE_URL',
    ENOTFOUND: 'the host does not resolve; fix the host in DATABASE_URL',
    '28P01': 'the password was refused; fix the user and password in DATABASE_URL',
    '28000': 'the server refused this user; check pg_hba.conf and the user in DATABASE_URL',
    '3D000': 'the database does not exist; create it (createdb) or fix its name in DATABASE_URL',
  };
  const reason = reasons[code];
  return reason === undefined ? error : new StartupError(`cannot use the database ${where}: ${reason}`);
}
