/**
 * A start-up failure the operator fixes (a busy port, an unusable DATA_DIR, a second server on the same
 * data): the CLI prints its message as one line and exits 1, without a stack trace.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
