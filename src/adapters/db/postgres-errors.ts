import { DependencyUnavailable } from '../../ports/dependency-unavailable.js';
import { markIfTransient, type DriverFailures } from '../support/transient-errors.js';

/** Node's socket errors: nothing listens, the link broke, the name or route is gone. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/**
 * SQLSTATEs that say the server, not the statement, is the problem: shutting down or restarting (57P01-3),
 * out of connections (53300), a statement cut by `statement_timeout` (57014). Class 08 is matched apart.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** pg's and pg-pool's own errors carry no code, only these messages. */
const MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /Query read timeout/i, /not queryable/i, /connection timeout/i];

const codeOf = (error: unknown): string | undefined => {
  const code: unknown = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
};

/** Whether `error` means PostgreSQL could not be reached or used at all (as opposed to refusing this statement). */
export function isPostgresUnavailable(error: unknown): boolean {
  if (error instanceof DependencyUnavailable) return true;
  const code = codeOf(error);
  if (code !== undefined && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  // An AggregateError (several addresses refused) carries its causes.
  if (error instanceof AggregateError) return error.errors.some(isPostgresUnavailable);
  const message = error instanceof Error ? error.message : '';
  return MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * Failures of the server rather than the statement that are not (or not only) an outage, and outages reported only as
 * another error's cause, where isPostgresUnavailable does not look: a lost connection (class 08, or pg's words), its
 * resources (53), an operator's intervention (57P), the serialization failures a rerun resolves (40001, 40P01).
 */
const TRANSIENT: DriverFailures = {
  codes: (code) => /^(08|53|57P)/.test(code) || code === '40001' || code === '40P01',
  messages: /connection terminated|connection error|not queryable|timeout exceeded when trying to connect/i,
};

/**
 * The error as the port states it: a DependencyUnavailable when the database is out of reach, else the driver's
 * error, marked as a TransientFailure when a rerun may well succeed.
 */
export function translatePostgresError(error: unknown): unknown {
  if (error instanceof DependencyUnavailable) return error;
  if (!isPostgresUnavailable(error)) return markIfTransient(error, TRANSIENT);
  const detail = error instanceof Error && error.message !== '' ? error.message : (codeOf(error) ?? 'unknown error');
  return new DependencyUnavailable('database', `the database is unavailable (${detail})`, { cause: error });
}
