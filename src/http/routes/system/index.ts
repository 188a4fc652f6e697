import type { Deps } from '../../../domain/context.js';
import type { Api } from '../types.js';
import { registerDocs } from './docs.js';
import { registerFiles } from './files.js';
import { registerHealth } from './health.js';
import { registerOpenApi } from './openapi.js';

export function registerSystemRoutes(app: Api, deps: Deps, options: { serveFiles: boolean; keyAuth: boolean }): void {
  registerHealth(app, deps);
  registerOpenApi(app, { keyAuth: options.keyAuth });
  registerDocs(app);
  if (options.serveFiles) registerFiles(app, deps);
  app.get('/', (c) => c.redirect('/docs'));
}
