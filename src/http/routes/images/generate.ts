import { createRoute } from '@hono/zod-openapi';
import { acceptGeneration } from '../../../domain/generations/accept-generation.js';
import { awaitGeneration, DEFAULT_WAIT_MS } from '../../../domain/generations/await-generation.js';
import { errorOf } from '../../../domain/generations/generation-failure.js';
import { toGenerationRecord, type GenerationRecord } from '../../../domain/generations/generation-record.js';
import { toImageRecord } from '../../../domain/images/image-record.js';
import type { Deps } from '../../../domain/context.js';
import type { GenerationRow } from '../../../ports/database.js';
import { requestContext } from '../../app-env.js';
import { deprecationHeaders } from '../../deprecation.js';
import { parsePrefer } from '../../prefer.js';
import { idempotent, requires } from '../../route-table.js';
import { ErrorSchema, ImageSchema, errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import { GenerationSchema, generationLocation } from '../generations/schemas.js';
import type { RegisterRoutes } from '../types.js';
import { GenerateBodySchema } from './schemas.js';

const route = createRoute({
  operationId: 'generateImage',
  method: 'post',
  path: '/api/generate',
  ...requires('generate'),
  ...idempotent(),
  tags: ['Images'],
  summary: 'Generate an image from a prompt',
  description: [
    'Runs the prompt on the chosen model as a durable job, stores the image and records it. Every call creates a new image, unless it carries an `Idempotency-Key` already used in the last 24 hours: then the first answer is replayed with `Idempotent-Replayed: true`. A deprecated model answers with `Deprecation`, `Sunset` and a `Link` to its replacement.',
    'The job runs to its end whether or not the caller is still connected: a caller who hangs up never stops a paid provider call, and finds the image in the gallery or at `GET /api/generations/{id}`.',
    "`Prefer` (RFC 7240): none waits for the image and answers 201 (the spec's contract); `respond-async` answers 202 at once with the generation and `Location`; `wait=N` (1 to 60 s) answers 201 if the image is ready within N seconds, else 202. `Preference-Applied` says which was honoured.",
  ].join('\n\n'),
  request: jsonBody(GenerateBodySchema),
  responses: {
    201: jsonContent(ImageSchema, 'The generated image'),
    202: jsonContent(GenerationSchema, 'Accepted: the generation runs on; follow it at `Location`'),
    ...errorResponses,
    402: jsonContent(ErrorSchema, "The key's daily or monthly budget would be passed (BUDGET_EXCEEDED)"),
    409: jsonContent(ErrorSchema, 'The generation was cancelled before it finished'),
    413: jsonContent(ErrorSchema, 'Body larger than 1 MiB'),
    502: jsonContent(ErrorSchema, "The model's provider cannot be used (out of credit, wrong credentials): the operator must act"),
    503: jsonContent(ErrorSchema, 'The provider is down or failing repeatedly; retry after Retry-After seconds'),
    504: jsonContent(ErrorSchema, 'The provider did not answer in time (PROVIDER_TIMEOUT)'),
  },
});

export const registerGenerate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const prefer = parsePrefer(c.req.header('Prefer'));
    const generation = await acceptGeneration({ deps, ctx: requestContext(c), input: c.req.valid('json') });
    if (prefer.respondAsync && prefer.waitSeconds === undefined) {
      const { body, headers } = await accepted(deps, generation, 'respond-async');
      return c.json(body, 202, headers);
    }

    const applied = prefer.waitSeconds === undefined ? undefined : `wait=${prefer.waitSeconds}`;
    // The caller leaving ends this wait, never the generation.
    const timeoutMs = prefer.waitSeconds === undefined ? DEFAULT_WAIT_MS : prefer.waitSeconds * 1000;
    // An outage under the generation ends the wait too: 202, and its job records the image once it can.
    const row = (await awaitGeneration(deps, generation.id, { timeoutMs, signal: c.req.raw.signal })).row ?? generation;
    if (row.error !== null && (row.status === 'failed' || row.status === 'cancelled')) throw errorOf(row.error);
    const image = row.status === 'succeeded' ? await deps.db.images.findLive(row.user_id, row.image_id) : undefined;
    if (image === undefined) {
      const { body, headers } = await accepted(deps, row, applied);
      return c.json(body, 202, headers);
    }
    const headers: Record<string, string> = { ...deprecationHeaders(deps.catalog.find(image.model), deps.clock.now()) };
    if (applied !== undefined) headers['Preference-Applied'] = applied;
    return c.json(toImageRecord(image, deps.blobs), 201, headers);
  });
};

/** A 202's body and headers: the generation as it is now, where to follow it, and which preference was honoured. */
async function accepted(deps: Deps, row: GenerationRow, applied: string | undefined): Promise<{ body: GenerationRecord; headers: Record<string, string> }> {
  const headers: Record<string, string> = { Location: generationLocation(row.id) };
  if (applied !== undefined) headers['Preference-Applied'] = applied;
  return { body: await toGenerationRecord(deps, row), headers };
}
