import { withMiddlewareResponses } from '../../openapi-responses.js';
import type { Api } from '../types.js';

/** The document's `servers`: relative, so it names whichever origin served it (OpenAPI 3.1 resolves it there). */
const SERVERS = [{ url: '/', description: 'The imagegate server that serves this document' }];

export function registerOpenApi(app: Api, options: { keyAuth: boolean; version: string }): void {
  if (options.keyAuth) {
    app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      description: 'API key: Authorization: Bearer <API_KEY>',
    });
  }
  const config = {
    openapi: '3.1.0',
    info: {
      title: 'imagegate',
      version: options.version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        "Self-hostable image generation API. Errors are `{ error, details, code }` (under /v1, OpenAI's `{ error: { message, type, param, code } }`). " +
        (options.keyAuth ? 'Send `Authorization: Bearer <API_KEY>` on every /api and /v1 request.' : 'Access is by IP allow-list.'),
    },
    servers: SERVERS,
    security: options.keyAuth ? [{ bearerAuth: [] }] : [],
  };
  // Built on first request, after every route is registered, and kept: the routes do not change while serving.
  let document: unknown;
  app.get('/openapi.json', (c) => {
    document ??= withMiddlewareResponses(app.getOpenAPI31Document(config), { keyAuth: options.keyAuth });
    return c.json(document);
  });
}
