import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { startServer } from './server.js';

const USAGE = `Usage: imagegate <command>

Commands:
  serve     Start the HTTP service (settings come from the environment; see README)
  help      Show this help`;

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

export async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const command = positionals[0] ?? 'help';
  switch (command) {
    case 'serve':
      await serveCommand();
      return -1;
    case 'help':
    case '--help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError) process.stderr.write(`imagegate: ${error.message}\n`);
    else process.stderr.write(`imagegate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
