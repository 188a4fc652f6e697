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
