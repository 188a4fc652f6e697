/** The logging the domain needs; pino satisfies it, and so can a console-backed logger on Workers. */
export interface LogFn {
  (fields: object, message?: string): void;
  (message: string): void;
}

export interface Logger {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
}
