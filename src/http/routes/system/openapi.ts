import type { Api } from '../types.js';

export function registerOpenApi(app: Api, options: { keyAuth: boolean; version: string }): void {
  if (options.keyAuth) {
    app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      description: 'API key: Authorization: Bearer <API_KEY>',
    });
  }
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'imagegate',
      version: options.version,
      description:
        'Self-hostable image generation API. Errors are `{ error, details, code }`. ' +
        (options.keyAuth ? 'Send `Authorization: Bearer <API_KEY>` on every /api request.' : 'Access is by IP allow-list.'),
    },
    security: options.keyAuth ? [{ bearerAuth: [] }] : [],
  });
}
