import type { VerbArgs } from '../context.js';
import { settleQuietly } from '../charges/open-charge.js';
import { toImageRecord, type ImageRecord } from './image-record.js';
import { planGeneration, type GenerationRequest } from './plan-generation.js';
import { renderImage } from './render-image.js';
import { deleteThumbnails } from './thumbnails.js';
import { inSpan } from '../../ports/tracer.js';

export type GenerateImageInput = GenerationRequest;

/** Runs one prompt on its model's provider, stores the PNG, records the image. Every call makes a new image: retries are made safe above it, by the HTTP layer's Idempotency-Key. */
export function generateImage(args: VerbArgs<GenerateImageInput>): Promise<ImageRecord> {
  return inSpan('image.generate', {}, () => generate(args));
}

async function generate({ deps, ctx, input }: VerbArgs<GenerateImageInput>): Promise<ImageRecord> {
  const plan = await planGeneration(deps, ctx.userId, input);
  const { row, charge } = await renderImage(deps, ctx, plan, deps.ids.newId('img'));
  try {
    // The image and its settled charge land together: recorded and paid, or neither.
    await deps.db.commit([...deps.db.images.recordWrites(row), ...(charge === undefined ? [] : [deps.db.charges.settleWrite(charge)])]);
  } catch (error) {
    // No record means no object: a failed insert must not leave an orphan behind a public URL.
    await deps.blobs.delete(row.r2_key).catch(() => undefined);
    await deleteThumbnails(deps.blobs, row.id);
    // The provider was paid all the same: the ledger keeps the charge, without an image.
    if (charge !== undefined) await settleQuietly(deps, { ...charge, outcome: 'charged_no_image', error: `the image could not be recorded: ${error instanceof Error ? error.message : String(error)}` });
    throw error;
  }
  return toImageRecord(row, deps.blobs);
}
