/** What a service the process depends on is, as the log and a readiness answer name it. */
export type DependencyName = 'database' | 'redis' | 'storage';

/**
 * Thrown by an adapter when the service behind it cannot be reached (refused, reset, timed out, shutting
 * down), as opposed to refusing the request itself. The HTTP layer answers 503 with Retry-After: the
 * client did nothing wrong and may try again shortly. Adapters classify their own driver's errors, so
 * nothing above them needs to know a driver's error codes.
 */
export class DependencyUnavailable extends Error {
  override readonly name = 'DependencyUnavailable';

  constructor(
    readonly dependency: DependencyName,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

export const isDependencyUnavailable = (error: unknown): error is DependencyUnavailable => error instanceof DependencyUnavailable;

const TRANSIENT = Symbol.for('imagegate.transient-failure');

/**
 * A driver's error that an adapter marked as the infrastructure failing under the work, short of a dependency out of
 * reach: a busy SQLite file, a transaction PostgreSQL asks to run again, a Redis command given up on, a connection
 * that broke. The error stays the driver's own (its class, code and message, so a request answers as it would
 * anyway); work that runs again by itself (a queued generation) runs again rather than failing on it.
 */
export type TransientFailure = Error & { readonly [TRANSIENT]: true };

/** `error`, marked as a TransientFailure when it is an Error (anything else is handed back as it is), for `throw markTransient(error)`. */
export function markTransient<T>(error: T): T {
  if (error instanceof Error && !isTransientFailure(error) && Object.isExtensible(error)) Object.defineProperty(error, TRANSIENT, { value: true });
  return error;
}

export const isTransientFailure = (error: unknown): error is TransientFailure =>
  error instanceof Error && (error as Error & Partial<Record<symbol, unknown>>)[TRANSIENT] === true;
