import { StartupError } from '../adapters/process/startup-error.js';
import { ConfigError, loadConfig } from '../config.js';
import { GENERATE_USAGE, generateCommand } from './cli/generate.js';
import { KEYS_USAGE, keysCommand } from './cli/keys.js';
import { MODELS_USAGE, modelsCommand } from './cli/models.js';
import { installValidationMessages } from '../http/validation-messages.js';
import { startServer } from './server.js';

const USAGE = `Usage: imagegate <command>

Commands:
  serve     Start the HTTP service (settings come from the environment; see README)
  keys      Create, list and revoke API keys (imagegate keys --help)
  generate  Run one prompt on a model and write the PNG (imagegate generate --help)
  models    List the models this environment can run, with costs (imagegate models --all)
  help      Show this help`;

const io = { out: (text: string) => process.stdout.write(`${text}\n`), err: (text: string) => process.stderr.write(`${text}\n`) };

async function serveCommand(): Promise<void> {
  const server = await startServer(loadConfig());
  const shutdown = (signal: string) => {
    process.stderr.write(`received ${signal}, finishing in-flight requests\n`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/** Returns the exit code, or undefined while a long-running command (serve) keeps the process alive. */
export async function main(argv: string[]): Promise<number | undefined> {
  installValidationMessages();
  const [command = 'help', ...rest] = argv;
  switch (command) {
    case 'serve':
      await serveCommand();
      return undefined;
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
    else if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) process.stderr.write(`imagegate: ${error.message}\n`);
    else process.stderr.write(`imagegate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
