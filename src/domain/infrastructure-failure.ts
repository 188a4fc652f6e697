import { DependencyUnavailable } from '../ports/dependency-unavailable.js';
import { ApiError } from './errors.js';

/** Node's and the drivers' words for a peer that went away or never answered. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL']);
/** pg and ioredis say a lost connection in words rather than codes. */
const NETWORK_WORDS = /connection terminated|connection error|not queryable|timeout exceeded when trying to connect|connection is closed|max retries per request|socket hang up|stream isn't writeable/i;

/**
 * Whether an error says infrastructure was away (a retry may well succeed) rather than that the work itself
 * is wrong. Adapters say so with DependencyUnavailable, which renderImage turns into a 503 naming the
 * dependency; for drivers that do not (yet), the usual shapes: PostgreSQL classes 08 connection, 53
 * resources, 57P operator intervention (shutdown), and the serialization failures (40001, 40P01) a rerun resolves.
 */
export function looksLikeInfrastructure(error: unknown): boolean {
  if (error instanceof DependencyUnavailable) return true;
  // A 503 that names the dependency out of reach (the database, Redis, storage), not a provider's own 503.
  if (error instanceof ApiError) return typeof error.details === 'object' && typeof error.details.dependency === 'string';
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (NETWORK_CODES.has(code) || /^(08|53|57P)/.test(code) || code === '40001' || code === '40P01') return true;
  if (error instanceof AggregateError && error.errors.some(looksLikeInfrastructure)) return true;
  return NETWORK_WORDS.test(error.message) || (error.cause !== undefined && looksLikeInfrastructure(error.cause));
}
