import { createRoute, z } from '@hono/zod-openapi';
import { jsonContent } from '../../schemas.js';
import { IMAGE_TYPES, type ImageType } from '../../../ports/image-codec.js';
import type { Api } from '../types.js';

export const APP_CONFIG_PATH = '/app/config.json';

const AppConfigSchema = z
  .object({
    auth_mode: z
      .enum(['api_key', 'ip_allowlist'])
      .openapi({ description: 'api_key: send Authorization: Bearer <API_KEY> on /api requests; ip_allowlist: send nothing' }),
    version: z.string().openapi({ example: '0.1.0' }),
    upload_types: z.array(z.enum(IMAGE_TYPES)).openapi({
      description: 'The image types this server decodes, for uploads and edits: all three on Node, image/png on Cloudflare Workers',
      example: ['image/png', 'image/jpeg', 'image/webp'],
    }),
  })
  .openapi('AppConfig');

/** Outside /api on purpose: in key mode every /api request needs a key, and this is what tells the app to ask for one. */
const route = createRoute({
  operationId: 'getAppConfig',
  method: 'get',
  path: APP_CONFIG_PATH,
  tags: ['Service'],
  summary: 'How the web app should talk to this server (its access mode); needs no key',
  security: [],
  responses: { 200: jsonContent(AppConfigSchema, 'The access mode and the server version') },
});

export function registerAppConfig(app: Api, options: { keyAuth: boolean; version: string; uploadTypes: readonly ImageType[] }): void {
  const body = {
    auth_mode: options.keyAuth ? ('api_key' as const) : ('ip_allowlist' as const),
    version: options.version,
    upload_types: [...options.uploadTypes],
  };
  app.openapi(route, (c) => c.json(body, 200, { 'Cache-Control': 'no-cache' }));
}
