import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { requires } from '../../route-table.js';

const secretRoute = createRoute({
  operationId: 'getWebhookSecret',
  method: 'get',
  path: '/api/webhooks/secret',
  ...requires('manage'),
  tags: ['Batches'],
  summary: 'The Standard Webhooks signing secret (manage permission)',
  responses: {
    200: jsonContent(
      z.object({ secret: z.string().openapi({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }) }).openapi('WebhookSecret'),
      'The secret receivers verify signatures with',
    ),
    ...errorResponses,
  },
});

export const registerWebhookRoutes: RegisterRoutes = (app, deps) => {
  app.openapi(secretRoute, (c) => c.json({ secret: deps.batchSettings.webhookSecret }, 200));
};
