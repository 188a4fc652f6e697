import { pino } from 'pino';
import type { Config } from '../../config/config.js';
import type { Logger } from '../../ports/logger.js';
import { activeTraceFields } from '../../ports/tracer.js';

/**
 * `buffered` (the server and the worker): lines go to stdout by asynchronous writes, so a request never waits on the
 * pipe, and lines that pile up while one write is in flight leave in the next one. Nothing waits for a size to
 * fill (a quiet server's lines still appear at once), and pino flushes what is left when the process exits.
 * The CLI writes synchronously, so its lines keep their order with what it prints.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, options: { buffered?: boolean } = {}): Logger {
  // Every line written inside a traced request or job names its trace (traceId, spanId); none with tracing off.
  const settings = { level: config.logLevel, base: { service: 'imagegate' }, mixin: activeTraceFields };
  return options.buffered === true ? pino(settings, pino.destination({ dest: 1, sync: false })) : pino(settings);
}
