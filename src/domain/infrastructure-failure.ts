import { DependencyUnavailable, isTransientFailure } from '../ports/dependency-unavailable.js';
import { ApiError } from './errors.js';

/**
 * Whether an error says infrastructure was away (a retry may well succeed) rather than that the work itself
 * is wrong. Adapters classify their own drivers' errors: DependencyUnavailable for a service out of reach, which
 * renderImage turns into a 503 naming the dependency, or a driver's error marked as a TransientFailure (a busy
 * database, a serialization failure a rerun resolves). Either may arrive as the cause of another error.
 */
export function looksLikeInfrastructure(error: unknown): boolean {
  if (error instanceof DependencyUnavailable || isTransientFailure(error)) return true;
  // A 503 that names the dependency out of reach (the database, Redis, storage), not a provider's own 503.
  if (error instanceof ApiError) return typeof error.details === 'object' && typeof error.details.dependency === 'string';
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(looksLikeInfrastructure)) return true;
  return error.cause !== undefined && looksLikeInfrastructure(error.cause);
}
