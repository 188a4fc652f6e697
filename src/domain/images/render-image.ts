import type { BlobStore } from '../../ports/blob-store.js';
import type { EncodedImage } from '../../ports/image-codec.js';
import type { ChargeSettlement, ImageRow, StoredAnswer } from '../../ports/database.js';
import { readImageHeader } from '../inputs/image-header.js';
import { gateKey } from '../inputs/fair-gate.js';
import {
  ProviderAccountProblem,
  ProviderJobAbandoned,
  ProviderOutcomeUnknown,
  ProviderRefusal,
  ProviderUnavailable,
  type PartialImage,
  type ProviderCallOptions,
  type ProviderProgress,
  type ProviderRequest,
  type TokenUsage,
} from '../../ports/image-provider.js';
import { DependencyUnavailable } from '../../ports/dependency-unavailable.js';
import type { GenerationOutcome } from '../../ports/metrics.js';
import { openCharge, settleQuietly, type OpenCharge } from '../charges/open-charge.js';
import type { Deps, RequestContext } from '../context.js';
import { ApiError, dependencyUnavailable } from '../errors.js';
import { computeCost } from '../models/pricing.js';
import { pricedSettings } from './estimate-cost.js';
import { extensionOf, imageKey } from './image-record.js';
import { keptAsDelivered } from './kept-as-delivered.js';
import type { GenerationPlan } from './plan-generation.js';
import { inSpan } from '../../ports/tracer.js';

/** The row to record, and the settlement of its charge to write in the same transaction (none for free models). */
export interface RenderedImage {
  row: ImageRow;
  charge?: ChargeSettlement;
}

type RenderDeps = Pick<Deps, 'providers' | 'codec' | 'blobs' | 'logger' | 'clock' | 'db' | 'ids' | 'metrics'>;

/**
 * Reserves the call's cost, calls the provider, and stores the PNG under the image's own key; returns the row to
 * record with its charge's settlement. Storing under a key fixed by the id makes a retry overwrite its own object,
 * never add a second one. Every way the call can end settles its charge: not charged, charged without an image,
 * or uncertain. `resume` takes up a crashed batch prompt's earlier charge (see openCharge). `onPartial` receives the
 * partial images the provider streams when the request asked for some (partial_images); the others draw none.
 * `onProgress` receives how far the call got, where the provider reports it.
 */
export async function renderImage(
  deps: RenderDeps,
  ctx: RequestContext,
  plan: GenerationPlan,
  imageId: string,
  resume = false,
  onPartial?: (image: PartialImage) => void,
  onProgress?: (progress: ProviderProgress) => void,
): Promise<RenderedImage> {
  const { model, settings } = plan;
  const provider = deps.providers.get(model.provider);
  if (provider === undefined) throw new Error(`catalogue lists ${model.id} as available but provider ${model.provider} is missing`);

  const key = imageKey(imageId, extensionOf(settings.output.format));
  // Refused here, before the provider is called: a key past its budget spends nothing more.
  const charge = await openCharge(deps, ctx, plan, imageId, resume ? { probe: () => probeStoredAnswer(deps.blobs, key) } : false);
  // An earlier run stored this answer and could not record it: recorded now, the provider not called again.
  if (charge?.stored !== undefined) {
    const { stored } = charge;
    const row = imageRow(deps, ctx, plan, imageId, {
      key,
      width: stored.width,
      height: stored.height,
      seed: stored.seed ?? settings.seed,
      hasThumbnails: stored.has_thumbnails,
      cost: stored.cost_usd,
    });
    return { row, charge: { id: charge.id, outcome: 'succeeded', cost_usd: stored.cost_usd, at: row.created_at } };
  }

  const started = Date.now();
  // The provider's time alone, taken when its call ends: encoding and storing the answer are not the provider's.
  const calling = performance.now();
  let providerSeconds: number | undefined;
  const callEnded = (): number => (providerSeconds ??= (performance.now() - calling) / 1000);
  const labels = { model: model.id, provider: model.provider };
  let usage: TokenUsage | undefined;
  let delivered = false;
  try {
    const output = await inSpan(
      'provider.generate',
      { kind: 'client', attributes: { 'imagegate.model': model.id, 'imagegate.provider': model.provider, 'imagegate.image.id': imageId } },
      () => provider.generate(providerRequest(plan), { ...callOptions(ctx, plan, charge, onPartial), ...(onProgress === undefined ? {} : { onProgress }) }),
    );
    callEnded();
    delivered = true;
    usage = output.usage;
    const cost = computeCost(model.pricing, pricedSettings(plan), usage);
    const { output: wanted } = settings;
    const stored = await storable(deps, output.bytes, wanted, ctx.signal);
    // A store that fails is the service's outage, not the provider's answer: a 503 here, a retry for a batch prompt (same key).
    await deps.blobs.put(key, stored.bytes, stored.contentType).catch((error: unknown) => {
      if (error instanceof DependencyUnavailable) throw error;
      throw new DependencyUnavailable('storage', `could not store the image: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    const seed = output.seed ?? settings.seed;
    // Journaled before the record is written: a run whose record write fails records this answer next time.
    await charge?.recordStored({
      key,
      width: stored.width,
      height: stored.height,
      cost_usd: cost,
      has_thumbnails: false,
      ...(seed === undefined ? {} : { seed }),
    });
    deps.logger.info(
      { requestId: ctx.requestId, imageId, model: model.id, ms: Date.now() - started, providerMs: Math.round(callEnded() * 1000) },
      'image generated',
    );
    deps.metrics.generation({ ...labels, outcome: 'succeeded', seconds: callEnded() });
    deps.metrics.costSettled(model.id, cost);
    // Its thumbnails are made after it is recorded (queueThumbnails): the caller does not wait for them.
    const row = imageRow(deps, ctx, plan, imageId, { key, width: stored.width, height: stored.height, seed, hasThumbnails: false, cost });
    return { row, ...(charge === undefined ? {} : { charge: { id: charge.id, outcome: 'succeeded', cost_usd: cost, at: row.created_at } }) };
  } catch (error) {
    deps.metrics.generation({ ...labels, outcome: outcomeOf(error, ctx.signal?.aborted === true), seconds: callEnded() });
    if (charge === undefined) deps.metrics.costSettled(model.id, 0);
    else {
      await charge.flush();
      // What the provider answered was paid for even when turning it into a stored PNG failed afterwards.
      const settledCost = delivered ? computeCost(model.pricing, pricedSettings(plan), usage) : undefined;
      const abandoned = ctx.signal?.aborted === true ? { jobAccepted: charge.journal.job !== undefined } : undefined;
      const settlement = settlementFor(charge, error, settledCost, deps.clock.now().toISOString(), abandoned);
      await settleQuietly(deps, settlement);
      deps.metrics.costSettled(model.id, settlement.cost_usd);
    }
    throw error instanceof ApiError ? error : generationError(deps, ctx, model.id, imageId, error);
  }
}

/** The answer as it is stored: as delivered when that is what the codec would keep, else the codec's encoding. */
async function storable(
  deps: Pick<Deps, 'codec'>,
  bytes: Uint8Array,
  wanted: GenerationPlan['settings']['output'],
  signal: AbortSignal | undefined,
): Promise<Pick<EncodedImage, 'bytes' | 'contentType' | 'width' | 'height'>> {
  const opaque = wanted.background === 'opaque';
  const kept = keptAsDelivered(bytes, { format: wanted.format, opaque });
  if (kept !== undefined) return { bytes, contentType: 'image/png', ...kept };
  return deps.codec.encode(bytes, { format: wanted.format, compression: wanted.compression, opaque, signal });
}

interface StoredImage {
  key: string;
  width: number;
  height: number;
  seed: number | undefined;
  hasThumbnails: boolean;
  cost: number;
}

/** The record of an image stored under `stored.key`. */
function imageRow(deps: Pick<Deps, 'clock'>, ctx: RequestContext, plan: GenerationPlan, imageId: string, stored: StoredImage): ImageRow {
  const { settings } = plan;
  return {
    id: imageId,
    user_id: ctx.userId,
    prompt: plan.prompt,
    model: plan.model.id,
    r2_key: stored.key,
    width: stored.width,
    height: stored.height,
    cost: stored.cost,
    is_deleted: false,
    created_at: deps.clock.now().toISOString(),
    deleted_at: null,
    template_id: plan.template?.id ?? null,
    metadata: plan.metadata,
    // The seed the provider reports using (Stability picks its own for 0) is the one that reproduces the image.
    parameters: settings.parameters.seed === undefined || stored.seed === undefined ? settings.parameters : { ...settings.parameters, seed: stored.seed },
    ...(ctx.key === undefined ? {} : { key_id: ctx.key.id }),
    kind: 'generated',
    source_image_ids: plan.inputs.images.map((image) => image.id),
    has_thumbnails: stored.hasThumbnails,
  };
}

/** An answer stored under the image's own key by an earlier run, read from the object itself. */
async function probeStoredAnswer(blobs: Pick<BlobStore, 'get'>, key: string): Promise<StoredAnswer | undefined> {
  const blob = await blobs.get(key);
  const header = blob === undefined ? undefined : readImageHeader(blob.bytes);
  if (header === undefined) return undefined;
  // The cost is the charge's estimate (what the answer cost was not journaled); its thumbnails are made again later.
  return { key, width: header.width, height: header.height, cost_usd: 0, has_thumbnails: false };
}

/** How a call that threw ended, for `imagegate_generations_total{outcome}`; an abandoned job is checked before the unavailability it extends. */
function outcomeOf(error: unknown, callerLeft: boolean): GenerationOutcome {
  if (callerLeft) return 'cancelled';
  if (error instanceof ProviderOutcomeUnknown) return 'uncertain';
  if (error instanceof ProviderJobAbandoned) return 'abandoned';
  if (error instanceof ProviderRefusal) return 'refused';
  if (error instanceof ProviderUnavailable) return 'unavailable';
  return 'failed';
}

/** How the provider is called: the caller's signal, whose turn it takes, the charge's journal, and the partials asked for, if any. */
function callOptions(
  ctx: RequestContext,
  plan: GenerationPlan,
  charge: OpenCharge | undefined,
  onPartial: ((image: PartialImage) => void) | undefined,
): ProviderCallOptions {
  const count = plan.settings.output.partialImages;
  return {
    signal: ctx.signal,
    // Calls waiting for the provider take turns by key, as the generation queue does.
    share: gateKey(ctx),
    ...(charge === undefined ? {} : { journal: charge.journal }),
    ...(count === undefined || onPartial === undefined ? {} : { partialImages: { count, onPartial } }),
  };
}

/** What the provider is asked: the plan's settings and input images; only what the model takes is ever set. */
function providerRequest(plan: GenerationPlan): ProviderRequest {
  const { model, settings, inputs } = plan;
  const { output } = settings;
  return {
    providerModel: model.provider_model,
    prompt: plan.prompt,
    negativePrompt: settings.negativePrompt,
    width: settings.width,
    height: settings.height,
    seed: settings.seed,
    steps: settings.steps,
    guidance: settings.guidance,
    ...(inputs.images.length === 0 ? {} : { images: inputs.images }),
    ...(inputs.mask === undefined ? {} : { mask: inputs.mask }),
    ...(inputs.strength === undefined ? {} : { strength: inputs.strength }),
    ...(output.quality === undefined ? {} : { quality: output.quality }),
    ...(output.background === undefined ? {} : { background: output.background }),
    ...(output.inputFidelity === undefined ? {} : { inputFidelity: output.inputFidelity }),
    ...(output.moderation === undefined ? {} : { moderation: output.moderation }),
  };
}

/** How a failed call ends in the ledger: only a lost answer is uncertain; only an accepted or answered job is charged. */
export function settlementFor(
  charge: Pick<OpenCharge, 'id' | 'estimateUsd'>,
  error: unknown,
  deliveredCost: number | undefined,
  at: string,
  /** Set when the caller left mid-call: the call was cut off wherever it was. */
  callerLeft?: { jobAccepted: boolean },
): ChargeSettlement {
  const reason = error instanceof Error ? error.message : String(error);
  if (deliveredCost !== undefined) return { id: charge.id, outcome: 'charged_no_image', cost_usd: deliveredCost, error: reason, at };
  // Cut off by the caller: an accepted job is cancelled but billed; a request in flight may have been made.
  if (callerLeft !== undefined)
    return {
      id: charge.id,
      outcome: callerLeft.jobAccepted ? 'charged_no_image' : 'uncertain',
      cost_usd: charge.estimateUsd,
      error: `the caller left: ${reason}`,
      at,
    };
  if (error instanceof ProviderOutcomeUnknown) return { id: charge.id, outcome: 'uncertain', cost_usd: charge.estimateUsd, error: reason, at };
  if (error instanceof ProviderJobAbandoned) return { id: charge.id, outcome: 'charged_no_image', cost_usd: charge.estimateUsd, error: reason, at };
  return { id: charge.id, outcome: 'not_charged', cost_usd: 0, error: reason, at };
}

/** Seconds a caller is told to wait when a provider is down and said nothing itself. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

/**
 * What the caller can act on: a refusal (their request) is 400; the operator's problem (credit, credentials)
 * is 502 with a generic message, the detail going to the log; a lost answer is 502 (or 504 for a deadline) that
 * says the outcome is unknown; a job given up on is 504; a provider that is down, slow or behind an open breaker
 * is 503 with Retry-After; anything else is a 500, never echoing internals beyond the provider's words.
 */
function generationError(deps: Pick<Deps, 'logger'>, ctx: RequestContext, modelId: string, imageId: string, error: unknown): ApiError {
  // The database or storage failing mid-generation is an outage, not a failed generation.
  if (error instanceof DependencyUnavailable) return dependencyUnavailable(error);
  const message = error instanceof Error ? error.message : String(error);
  const context = { requestId: ctx.requestId, model: modelId, imageId, err: message };
  if (error instanceof ProviderAccountProblem) {
    deps.logger.error(context, 'image provider needs the operator: fix its account or settings');
    return new ApiError('PROVIDER_UNAVAILABLE', 'Image provider unavailable', {
      model: modelId,
      message: "the model's provider cannot be used right now; the operator has been told (see the server log)",
    });
  }
  deps.logger.warn(context, 'image generation failed');
  if (error instanceof ProviderOutcomeUnknown) {
    return new ApiError(error.timedOut ? 'PROVIDER_TIMEOUT' : 'GENERATION_OUTCOME_UNKNOWN', 'Generation outcome unknown', {
      model: modelId,
      outcome: 'unknown',
      message: `${message}; the provider may have made and billed the image, so it was not sent again (recorded as uncertain in GET /api/charges): retrying may pay twice`,
    });
  }
  if (error instanceof ProviderJobAbandoned) {
    return new ApiError('PROVIDER_TIMEOUT', 'Image provider timed out', {
      model: modelId,
      outcome: 'charged',
      message: `${message}; the provider accepted the job and bills it, so it is recorded as charged without an image`,
    });
  }
  // A refusal (content filter, a parameter the provider rejects) is about this request, so it is a 4xx.
  if (error instanceof ProviderRefusal) return new ApiError('GENERATION_REFUSED', 'Image generation refused', { model: modelId, message });
  if (error instanceof ProviderUnavailable) {
    const retryAfterSeconds = Math.max(1, Math.ceil((error.retryAfterMs ?? DEFAULT_RETRY_AFTER_SECONDS * 1000) / 1000));
    return new ApiError(
      'SERVICE_UNAVAILABLE',
      'Image provider temporarily unavailable',
      { model: modelId, message, retry_after: retryAfterSeconds },
      { retryAfterSeconds },
    );
  }
  return new ApiError('GENERATION_FAILED', 'Image generation failed', { message });
}
