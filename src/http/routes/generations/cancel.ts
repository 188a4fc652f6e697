import { createRoute } from '@hono/zod-openapi';
import { cancelGeneration } from '../../../domain/generations/generation-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { ErrorSchema, errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { GenerationIdParamSchema, GenerationSchema } from './schemas.js';

const route = createRoute({
  operationId: 'cancelGeneration',
  method: 'post',
  path: '/api/generations/{id}/cancel',
  ...requires('generate'),
  tags: ['Generations'],
  summary: 'Cancel a generation: a queued one is never charged; a running one is stopped at its provider',
  description:
    'Takes no input: send no body, or a JSON `{}`. A queued generation answers `cancelled` at once. A running one answers `running` and is stopped by the worker that runs it within moments (follow it, or GET it again); its charge settles as the provider bills a call cut off there.',
  request: { params: GenerationIdParamSchema },
  responses: {
    200: jsonContent(GenerationSchema, 'The generation, cancelled or being cancelled'),
    ...errorResponses,
    409: jsonContent(ErrorSchema, 'The generation already finished'),
  },
});

export const registerCancelGeneration: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await cancelGeneration({ deps, ctx: requestContext(c), input: { generationId: c.req.valid('param').id } }), 200));
};
