import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import type { Config } from '../../../../config/config.js';
import { DataDirLockedError, type DataDirLock } from '../../../../adapters/process/data-dir-lock.js';
import { buildDeps } from '../../deps.js';
import { claimDataDir } from '../../storage.js';
import { startBatchWorkers, type BatchWorkers } from '../../../../domain/batches/batch-workers.js';
import { createKeyAuthenticator } from '../../../../domain/keys/authenticate.js';
import { bootstrapAdminKey } from '../../../../domain/keys/bootstrap-admin-key.js';
import { defaultUserPrincipal, type Principal } from '../../../../domain/keys/principal.js';
import { createMcpServer } from '../../../../mcp/mcp-server.js';
import { VERSION } from '../../version.js';
import type { CliIo } from './cli-io.js';

export const MCP_USAGE = `Usage:
  IMAGEGATE_API_KEY=igk_live_... imagegate mcp

An MCP server on stdin/stdout for AI agents (Claude Desktop, Cursor, ...): tools to generate images, browse
and delete them, list models, make collections and batches, and read costs, acting as the user of the key
in IMAGEGATE_API_KEY with that key's permissions (in the IP allow-list mode, as default_user). Uses the same
database and storage settings as imagegate serve, and runs queued batch prompts while it is open.`;

/** Runs until the client closes stdin. Nothing but the protocol may reach stdout: the log goes to stderr. */
export async function mcpCommand(config: Config, io: CliIo): Promise<number | undefined> {
  const secret = process.env.IMAGEGATE_API_KEY?.trim();
  if (config.authMode === 'api_key' && (secret === undefined || secret === '')) {
    io.err(
      `imagegate mcp: set IMAGEGATE_API_KEY to an API key (create one with: imagegate keys create --name agent --permissions generate,read)\n\n${MCP_USAGE}`,
    );
    return 2;
  }
  const logger = pino({ level: config.logLevel, base: { service: 'imagegate-mcp' } }, pino.destination(2));
  const runtime = await buildDeps(config, { logger });
  const { deps } = runtime;
  let workerLock: DataDirLock | undefined | false;
  let workers: BatchWorkers | undefined;
  try {
    // As `serve` does, so an agent can be pointed at a fresh DATA_DIR with ADMIN_API_KEY and its own key.
    if (config.authMode === 'api_key' && config.adminApiKey !== undefined) await bootstrapAdminKey(deps, config.adminApiKey);
    const principal: Principal | undefined =
      secret === undefined || config.authMode === 'ip_allowlist' ? defaultUserPrincipal : await createKeyAuthenticator(deps).authenticate(secret);
    if (principal === undefined) {
      io.err('imagegate mcp: the key in IMAGEGATE_API_KEY is unknown, revoked or expired; create a new one with: imagegate keys create');
      await runtime.close();
      return 1;
    }
    workerLock = runsBatchPrompts(config, logger);
    if (workerLock !== false) workers = await startBatchWorkers(deps);
    const server = createMcpServer({ deps, principal, version: VERSION });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    process.stdin.on('end', () => void server.close());
    await server.connect(transport);
    logger.info({ user: principal.userId }, 'imagegate MCP server ready on stdio');
    await closed;
  } finally {
    await workers?.stop();
    await runtime.close();
    if (workerLock) workerLock.release();
  }
  return 0;
}

/**
 * The embedded queue has one consumer per DATA_DIR, the process holding its lock: when `imagegate serve`
 * runs on the same folder, it runs the batches this server creates, and this one runs none (taking them
 * over would run a prompt twice). That is the usual set-up (an agent beside the web app), so it is said as
 * such, not as the lock's refusal to a second server. A database server's queue is shared: there it always runs them.
 */
export function runsBatchPrompts(
  config: Pick<Config, 'database' | 'dataDir'>,
  logger: { info(fields: object, message: string): void; warn(fields: object, message: string): void },
): DataDirLock | undefined | false {
  if (config.database.kind !== 'sqlite') return undefined;
  try {
    return claimDataDir(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      logger.info(
        { dataDir: error.dataDir, serverPid: error.owner },
        `sharing DATA_DIR with the imagegate server running as process ${error.owner}: it runs the batch prompts, this MCP server serves the tools`,
      );
    } else {
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'could not claim DATA_DIR for batch prompts: this MCP server serves the tools, and queued batch prompts wait for a server to run them',
      );
    }
    return false;
  }
}
