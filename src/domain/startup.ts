import type { Deps } from './context.js';
import { settleStaleCharges } from './charges/settle-stale-charges.js';
import { reconcileBlobs } from './images/reconcile-blobs.js';
import { bootstrapAdminKey } from './keys/bootstrap-admin-key.js';

export interface StartupOptions {
  /**
   * Key mode only: the admin key from ADMIN_API_KEY, or (unset) a first admin key when no usable key is left.
   * `moreKeys` is how this runtime's operator makes more: the CLI on Node, the HTTP API on Workers (no CLI runs there).
   */
  adminKey?: { secret: string | undefined; moreKeys: 'cli' | 'http' };
  /**
   * A process that runs jobs cleans up after a stopped one before its first job: objects stored without a record,
   * and charges left reserved. Either may fail without stopping the start.
   */
  recover?: {
    orphanGraceSeconds: number;
    callDeadlineMs: number;
    /** This process is its database's only worker (the embedded setup's DATA_DIR lock): runs left by a crash are its own. */
    soleWorker?: boolean;
  };
  /** What the process does when a recovery step fails, for the log line: `serving anyway`, `working anyway`. */
  continuing: 'serving' | 'working';
}

/** How to create more keys, said with the first admin key. */
const MORE_KEYS = {
  cli: 'npx imagegate keys create --name <name> --permissions generate,read (or POST /api/keys)',
  http:
    `POST /api/keys with this key, e.g. curl -X POST <this Worker's URL>/api/keys -H "Authorization: Bearer <this key>" ` +
    `-H 'Content-Type: application/json' -d '{"name":"<name>","permissions":["generate","read"]}' (or the web app's API keys page)`,
} as const;

/**
 * The start-up steps of any runtime, on ports only: Node runs them once at start (after the port is bound, before
 * the first request is answered and the first job is taken); a Workers root can run them lazily or from a Cron Trigger.
 * Every step is idempotent, so running it again is harmless. A failing admin-key bootstrap stops the start.
 */
export async function startup(deps: Pick<Deps, 'db' | 'blobs' | 'clock' | 'ids' | 'logger'>, options: StartupOptions): Promise<void> {
  const { logger } = deps;
  if (options.adminKey !== undefined) {
    const bootstrap = await bootstrapAdminKey(deps, options.adminKey.secret);
    if (bootstrap.kind === 'generated') {
      // Printed once, on the first start with no key at all: the only time the secret exists in the clear.
      logger.warn(
        { apiKey: bootstrap.secret, keyId: bootstrap.keyId },
        `created the first admin API key; store it now, it is not shown again. Create more with: ${MORE_KEYS[options.adminKey.moreKeys]}`,
      );
    }
  }
  if (options.recover !== undefined) {
    const { orphanGraceSeconds, callDeadlineMs } = options.recover;
    // Before the workers and the first request, so nothing this process writes can be taken for a leftover.
    await reconcileBlobs(deps, { graceSeconds: orphanGraceSeconds }).catch((error: unknown) =>
      logger.error({ err: error }, `could not clean leftovers from the blob store; ${options.continuing} anyway`),
    );
    await settleStaleCharges(deps, { callDeadlineMs }).catch((error: unknown) =>
      logger.error({ err: error }, `could not settle charges left reserved by a stopped process; ${options.continuing} anyway`),
    );
    if (options.recover.soleWorker === true) {
      // Their jobs come back at once (the queue's own take-over); without this they would wait out the dead runs' claims.
      const released = await deps.db.generations.releaseAllClaims().catch((error: unknown) => {
        logger.error({ err: error }, `could not release the claims of generations a stopped process was running; ${options.continuing} anyway`);
        return 0;
      });
      if (released > 0) logger.info({ generations: released }, 'took over the generations a stopped process was running');
    }
  }
}
