import type { Deps } from '../../../domain/context.js';
import type { Api } from '../types.js';
import { registerAppConfig } from './app-config.js';
import { registerDocs } from './docs.js';
import { registerFiles } from './files.js';
import { registerHealth } from './health.js';
import { registerOpenApi } from './openapi.js';
import { registerWebApp } from './web-app.js';

export interface SystemRouteOptions {
  serveFiles: boolean;
  keyAuth: boolean;
  /** Folder of the built web app (`index.html` and `assets/`). */
  webAppDir: string;
}

export function registerSystemRoutes(app: Api, deps: Deps, options: SystemRouteOptions): void {
  registerHealth(app, deps);
  registerOpenApi(app, { keyAuth: options.keyAuth });
  registerDocs(app);
  if (options.serveFiles) registerFiles(app, deps);
  registerAppConfig(app, { keyAuth: options.keyAuth });
  registerWebApp(app, { dir: options.webAppDir, logger: deps.logger });
}
