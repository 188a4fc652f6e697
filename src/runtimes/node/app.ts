import os from 'node:os';
import path from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createDiskUploadStaging } from '../../adapters/staging/disk-upload-staging.js';
import { createApp, type CreateAppOptions } from '../../app.js';
import { VERSION } from './version.js';
import type { AppEnv } from '../../http/app-env.js';
import type { Api } from '../../http/routes/types.js';
import type { Logger } from '../../ports/logger.js';
import { registerDocs } from './docs-routes.js';
import { DEFAULT_WEB_APP_DIR, registerWebApp } from './web-app-routes.js';

export interface NodeRouteOptions {
  logger: Logger;
  /** Folder of the built web app served at `/`; defaults to the package's own build (`dist/web`). */
  webAppDir?: string | undefined;
}

/**
 * The pages Node serves from its own disk: the API reference (/docs, with swagger-ui-dist's files) and the
 * built web app (/, its pages and /assets). Workers serves both as static assets instead. Added before the app
 * answers its first request: the route table behind 404/405 and the permission checks is built then.
 */
export function registerNodeRoutes(app: Api, { logger, webAppDir = DEFAULT_WEB_APP_DIR }: NodeRouteOptions): void {
  registerDocs(app);
  registerWebApp(app, { dir: webAppDir, logger });
}

export type CreateNodeAppOptions = Omit<CreateAppOptions, 'version' | 'uploadStaging'> &
  Pick<NodeRouteOptions, 'webAppDir'> & {
    /** Where multipart files are staged as they arrive (the server's DATA_DIR/tmp); the system's temporary folder by default. */
    stagingDir?: string;
  };

/** The runtime-neutral app, with the version from package.json, plus the pages Node serves from disk: what the Node server answers. */
export function createNodeApp({ webAppDir, stagingDir = path.join(os.tmpdir(), 'imagegate-uploads'), ...options }: CreateNodeAppOptions): OpenAPIHono<AppEnv> {
  // Multipart files go to disk as they arrive, so an upload in flight costs a chunk of memory, not its size.
  const uploadStaging = createDiskUploadStaging({ dir: stagingDir });
  const app = createApp({ ...options, uploadStaging, version: VERSION });
  registerNodeRoutes(app, { logger: options.deps.logger, webAppDir });
  return app;
}
