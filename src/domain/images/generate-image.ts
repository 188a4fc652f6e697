import type { GenerationRow } from '../../ports/database.js';
import type { Deps, VerbArgs } from '../context.js';
import { ApiError, DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors.js';
import { acceptGeneration } from '../generations/accept-generation.js';
import { awaitGeneration, DEFAULT_WAIT_MS, type Awaited } from '../generations/await-generation.js';
import { errorOf } from '../generations/generation-failure.js';
import { toImageRecord, type ImageRecord } from './image-record.js';
import type { GenerationRequest } from './plan-generation.js';
import { inSpan } from '../../ports/tracer.js';

export type GenerateImageInput = GenerationRequest;

/**
 * Runs one prompt as a durable generation job and waits for its image: what `/v1`, MCP and other callers that answer
 * with the image use. Every call makes a new image (retries are made safe above it, by Idempotency-Key). The caller
 * leaving (`ctx.signal`) ends the wait, never the generation: its image still lands in the gallery.
 */
export function generateImage(args: VerbArgs<GenerateImageInput>): Promise<ImageRecord> {
  return inSpan('image.generate', {}, () => generate(args));
}

async function generate({ deps, ctx, input }: VerbArgs<GenerateImageInput>): Promise<ImageRecord> {
  const accepted = await acceptGeneration({ deps, ctx, input });
  const waited = await awaitGeneration(deps, accepted.id, { timeoutMs: DEFAULT_WAIT_MS, signal: ctx.signal });
  return imageOfGeneration(deps, accepted, waited);
}

/**
 * What a caller who waited for a generation gets: its image, or the generation's own error (the same code, body
 * and Retry-After), or why it is not there yet. For callers that accept and wait themselves (MCP, to report progress).
 */
export async function imageOfGeneration(deps: Pick<Deps, 'db' | 'blobs'>, accepted: GenerationRow, waited: Awaited): Promise<ImageRecord> {
  const row = waited.row ?? accepted;
  if (row.error !== null && (row.status === 'failed' || row.status === 'cancelled')) throw errorOf(row.error);
  const image = row.status === 'succeeded' ? await deps.db.images.findLive(row.user_id, row.image_id) : undefined;
  if (image !== undefined) return toImageRecord(image, deps.blobs);
  if (waited.retrying) {
    // Sending the request again would make (and may pay for) a second image: this one is on its way.
    throw new ApiError(
      'GENERATION_DELAYED',
      'Generation delayed',
      {
        generation_id: row.id,
        image_id: row.image_id,
        message: `the service's database or storage failed while this generation ran; it runs again by itself and its image will be ${row.image_id}: do not send the request again, follow GET /api/generations/${row.id}`,
      },
      { retryAfterSeconds: DEPENDENCY_RETRY_AFTER_SECONDS },
    );
  }
  throw new ApiError('PROVIDER_TIMEOUT', 'Generation still running', {
    generation_id: row.id,
    image_id: row.image_id,
    message: `the generation has not finished yet; it goes on, and its image will be ${row.image_id}: follow it at GET /api/generations/${row.id}`,
  });
}
