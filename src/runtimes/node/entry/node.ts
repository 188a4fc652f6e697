import { boundHeapGrowth } from '../../../adapters/process/heap-growth.js';
import { StartupError } from '../../../adapters/process/startup-error.js';
import { startTracing } from '../../../adapters/tracing/start-tracing.js';
import { ConfigError, type Config } from '../../../config/config.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { VERSION } from '../version.js';
import { GENERATE_USAGE, generateCommand } from './cli/generate.js';
import { KEYS_USAGE, keysCommand } from './cli/keys.js';
import { MCP_USAGE, mcpCommand } from './cli/mcp.js';
import { migrateCommand } from './cli/migrate.js';
import { MODELS_USAGE, modelsCommand } from './cli/models.js';
import { SEED_USAGE, seedCommand } from './cli/seed.js';
import { installValidationMessages } from '../../../domain/validation-messages.js';
import { requireSharedDatabase, startQueueWorker } from './queue-worker.js';
import { startServer } from './server.js';

const USAGE = `Usage: imagegate <command>

Commands:
  serve     Start the HTTP service and, unless --no-workers, the batch and webhook workers
            (settings come from the environment; see docs/configuration.md)
  worker    Run batch and webhook jobs only, no API port (needs DATABASE_URL; WORKER_CONCURRENCY;
            with METRICS_TOKEN, /metrics on METRICS_PORT)
  migrate   Apply database migrations and exit (serve and worker also migrate at start)
  seed      Fill the database with synthetic images for benchmarks and demos (imagegate seed --help)
  keys      Create, list and revoke API keys (imagegate keys --help)
  generate  Run one prompt on a model and write the PNG (imagegate generate --help)
  models    List the models this environment can run, with costs (imagegate models --all)
  mcp       An MCP server on stdio for AI agents, as the user of IMAGEGATE_API_KEY (imagegate mcp --help)
  help      Show this help`;

const io = { out: (text: string) => process.stdout.write(`${text}\n`), err: (text: string) => process.stderr.write(`${text}\n`) };

/**
 * Traps SIGTERM and SIGINT from the start (a signal during start-up must not kill the process half-way),
 * and stops gracefully once the process is running: exit 0 when everything closed, 1 when forced.
 */
function trapSignals(finishing: string): { attach(stoppable: { close(): Promise<void> }): void } {
  let stoppable: { close(): Promise<void> } | undefined;
  let received: string | undefined;
  const shutdown = () => {
    if (stoppable === undefined || received === undefined) return;
    process.stderr.write(`received ${received}, ${finishing}\n`);
    const force = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS);
    force.unref();
    stoppable.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  const onSignal = (signal: string) => {
    // A second signal means "now": stop waiting for start-up or for running work.
    if (received !== undefined) process.exit(1);
    received = signal;
    shutdown();
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  return {
    attach(running) {
      stoppable = running;
      shutdown();
    },
  };
}

/** Longer than a typical generation, shorter than an orchestrator's kill timeout (Kubernetes: 30 s). */
const SHUTDOWN_DEADLINE_MS = 25_000;

async function serveCommand(args: string[]): Promise<number | undefined> {
  const unknown = args.filter((arg) => arg !== '--no-workers');
  if (unknown.length > 0) {
    io.err(`imagegate serve: unknown argument ${JSON.stringify(unknown[0])}; the only one is --no-workers`);
    return 2;
  }
  const workers = !args.includes('--no-workers');
  boundHeapGrowth();
  const config = loadConfig();
  if (!workers) requireSharedDatabase(config, 'imagegate serve --no-workers');
  const signals = trapSignals(workers ? 'finishing in-flight requests and jobs' : 'finishing in-flight requests');
  signals.attach(await traced(config, () => startServer(config, { workers })));
  return undefined;
}

async function workerCommand(): Promise<undefined> {
  const signals = trapSignals('finishing running jobs');
  boundHeapGrowth();
  const config = loadConfig();
  signals.attach(await traced(config, () => startQueueWorker(config)));
  return undefined;
}

/**
 * Starts OpenTelemetry tracing first when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (nothing is loaded otherwise),
 * so the whole life of the process is traced; the spans still buffered are exported after the process's own close.
 */
async function traced<T extends { close(): Promise<void> }>(config: Config, start: () => Promise<T>): Promise<T> {
  const logger = createLogger(config);
  const tracing = await startTracing({ logger, version: VERSION });
  if (tracing === undefined) return start();
  logger.info({ protocol: tracing.protocol }, 'exporting traces over OTLP');
  let running: T;
  try {
    running = await start();
  } catch (error) {
    await tracing.shutdown().catch(() => undefined);
    throw error;
  }
  const stop = running.close.bind(running);
  const close = async () => {
    try {
      await stop();
    } finally {
      await tracing.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'could not export the last traces'));
    }
  };
  return { ...running, close };
}

/** Returns the exit code, or undefined while a long-running command (serve) keeps the process alive. */
export async function main(argv: string[]): Promise<number | undefined> {
  installValidationMessages();
  const [command = 'help', ...rest] = argv;
  switch (command) {
    case 'serve':
      return serveCommand(rest);
    case 'worker':
      return workerCommand();
    case 'migrate':
      return migrateCommand(loadConfig(), io);
    case 'seed':
      if (rest.length === 0 || rest.includes('--help')) {
        io.out(SEED_USAGE);
        return 0;
      }
      return seedCommand(loadConfig(), rest, io);
    case 'keys':
      if (rest.length === 0 || rest.includes('--help')) {
        io.out(KEYS_USAGE);
        return 0;
      }
      return keysCommand(loadConfig(), rest, io);
    case 'generate':
      if (rest.length === 0 || rest.includes('--help')) {
        io.out(GENERATE_USAGE);
        return 0;
      }
      return generateCommand(loadConfig(), rest, io);
    case 'models':
      if (rest.includes('--help')) {
        io.out(MODELS_USAGE);
        return 0;
      }
      return modelsCommand(loadConfig(), rest, io);
    case 'mcp':
      if (rest.includes('--help')) {
        io.out(MCP_USAGE);
        return 0;
      }
      return mcpCommand(loadConfig(), io);
    case 'help':
    case '--help':
      io.out(USAGE);
      return 0;
    default:
      io.err(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    // Problems the operator fixes are one line; anything else keeps its stack for a bug report.
    if (error instanceof ConfigError || error instanceof StartupError) process.stderr.write(`imagegate: ${error.message}\n`);
    else if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
      process.stderr.write(`imagegate: ${error.message}\n`);
    else process.stderr.write(`imagegate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
