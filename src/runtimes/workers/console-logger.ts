import type { LogFn, Logger } from '../../ports/logger.js';

const LEVELS = { error: 50, warn: 40, info: 30, debug: 20 } as const;
type Level = keyof typeof LEVELS;

/**
 * One JSON line per entry on the console, which is what Workers Logs and `wrangler tail` collect, in pino's shape
 * (level number, time, msg, fields) so the same queries read both runtimes' logs. An Error in `err` becomes its
 * message and stack: JSON.stringify would drop both.
 */
export function createConsoleLogger(minimum: string): Logger {
  const floor = LEVELS[minimum as Level] ?? LEVELS.info;
  const at = (level: Level): LogFn =>
    ((first: object | string, message?: string) => {
      if (LEVELS[level] < floor) return;
      const fields = typeof first === 'string' ? {} : first;
      const msg = typeof first === 'string' ? first : message;
      const line = JSON.stringify({ level: LEVELS[level], time: Date.now(), service: 'imagegate', ...fields, msg }, (_key, value: unknown) =>
        value instanceof Error ? { message: value.message, stack: value.stack } : value,
      );
      if (level === 'error') console.error(line);
      else if (level === 'warn') console.warn(line);
      else console.log(line);
    }) as LogFn;
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
