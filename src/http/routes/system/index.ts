import type { Deps } from '../../../domain/context.js';
import { IMAGE_TYPES } from '../../../ports/image-codec.js';
import type { Api } from '../types.js';
import { registerAppConfig } from './app-config.js';
import { registerFiles } from './files.js';
import { registerHealth } from './health.js';
import { registerOpenApi } from './openapi.js';

export interface SystemRouteOptions {
  serveFiles: boolean;
  keyAuth: boolean;
  /** The package version /openapi.json and /app/config.json report. */
  version: string;
}

/** The pages read from disk (/docs, the web app) are the runtime's: see src/runtimes/node/app.ts. */
export function registerSystemRoutes(app: Api, deps: Deps, options: SystemRouteOptions): void {
  registerHealth(app, deps);
  registerOpenApi(app, { keyAuth: options.keyAuth, version: options.version });
  if (options.serveFiles) registerFiles(app, deps);
  registerAppConfig(app, { keyAuth: options.keyAuth, version: options.version, uploadTypes: deps.codec.inputFormats ?? IMAGE_TYPES });
}
