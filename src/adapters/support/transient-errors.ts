import { markTransient } from '../../ports/dependency-unavailable.js';

/** Node's words for a peer that went away or never answered, whichever driver's socket it was. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED']);
const SOCKET_WORDS = /socket hang up/i;

/** What else one driver says when the service behind it, rather than the statement or command, failed. */
export interface DriverFailures {
  codes?: (code: string) => boolean;
  /** For drivers that say it in words rather than codes. */
  messages?: RegExp;
}

/**
 * Whether a driver's error, or one it carries (its cause, an AggregateError's errors), says the infrastructure
 * failed under the work: a socket that broke or never connected, or what `driver` says of its own.
 */
export function failedOnInfrastructure(error: unknown, driver: DriverFailures = {}): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (SOCKET_CODES.has(code) || (code !== '' && driver.codes?.(code) === true)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => failedOnInfrastructure(inner, driver))) return true;
  if (SOCKET_WORDS.test(error.message) || driver.messages?.test(error.message) === true) return true;
  return error.cause !== undefined && failedOnInfrastructure(error.cause, driver);
}

/** The error, marked as a TransientFailure (ports/dependency-unavailable.ts) when it is one: for `throw markIfTransient(error)`. */
export const markIfTransient = (error: unknown, driver: DriverFailures = {}): unknown => (failedOnInfrastructure(error, driver) ? markTransient(error) : error);
