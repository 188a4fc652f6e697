import type { ImageRow } from '../../ports/database.js';
import { ProviderAccountProblem, ProviderRefusal, ProviderUnavailable, type TokenUsage } from '../../ports/image-provider.js';
import type { Deps, RequestContext } from '../context.js';
import { ApiError } from '../errors.js';
import { checkBudget } from '../keys/budget.js';
import { computeCost } from '../models/pricing.js';
import { imageKey } from './image-record.js';
import type { GenerationPlan } from './plan-generation.js';

/**
 * Calls the provider and stores the PNG under the image's own key; returns the row to record.
 * Storing under a key fixed by the id makes a retry overwrite its own object, never add a second one.
 */
export async function renderImage(
  deps: Pick<Deps, 'providers' | 'codec' | 'blobs' | 'logger' | 'clock' | 'db'>,
  ctx: RequestContext,
  plan: GenerationPlan,
  imageId: string,
): Promise<ImageRow> {
  const { model, settings } = plan;
  const provider = deps.providers.get(model.provider);
  if (provider === undefined) throw new Error(`catalogue lists ${model.id} as available but provider ${model.provider} is missing`);

  // Refused before the provider is called: a key past its budget spends nothing more.
  await checkBudget(deps, ctx.key, estimateCost(plan));

  const started = Date.now();
  let normalized;
  let seed = settings.seed;
  let usage: TokenUsage | undefined;
  try {
    const output = await provider.generate({
      providerModel: model.provider_model,
      prompt: plan.prompt,
      negativePrompt: settings.negativePrompt,
      width: settings.width,
      height: settings.height,
      seed: settings.seed,
      steps: settings.steps,
      guidance: settings.guidance,
    }, { signal: ctx.signal });
    normalized = await deps.codec.normalizeToPng(output.bytes, { signal: ctx.signal });
    seed = output.seed ?? seed;
    usage = output.usage;
  } catch (error) {
    throw generationError(deps, ctx, model.id, imageId, error);
  }

  const key = imageKey(imageId);
  await deps.blobs.put(key, normalized.png, 'image/png');
  deps.logger.info({ requestId: ctx.requestId, imageId, model: model.id, ms: Date.now() - started }, 'image generated');
  return {
    id: imageId,
    user_id: ctx.userId,
    prompt: plan.prompt,
    model: model.id,
    r2_key: key,
    width: normalized.width,
    height: normalized.height,
    cost: computeCost(model.pricing, { width: settings.width, height: settings.height, steps: settings.steps }, usage),
    is_deleted: false,
    created_at: deps.clock.now().toISOString(),
    deleted_at: null,
    template_id: plan.template?.id ?? null,
    metadata: plan.metadata,
    // The seed the provider reports using (Stability picks its own for 0) is the one that reproduces the image.
    parameters: settings.parameters.seed === undefined ? settings.parameters : { ...settings.parameters, seed },
    ...(ctx.key === undefined ? {} : { key_id: ctx.key.id }),
  };
}

/** The catalogue's price for these settings, before the provider reports what it billed. */
export const estimateCost = ({ model, settings }: GenerationPlan): number =>
  computeCost(model.pricing, { width: settings.width, height: settings.height, steps: settings.steps });

/** Seconds a caller is told to wait when a provider is down and said nothing itself. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

/**
 * What the caller can act on: a refusal (their request) is 400; the operator's problem (credit, credentials)
 * is 502 with a generic message, the detail going to the log; a provider that is down, slow or behind an open
 * breaker is 503 with Retry-After; anything else is a 500, never echoing internals beyond the provider's words.
 */
function generationError(deps: Pick<Deps, 'logger'>, ctx: RequestContext, modelId: string, imageId: string, error: unknown): ApiError {
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
  // A refusal (content filter, a parameter the provider rejects) is about this request, so it is a 4xx.
  if (error instanceof ProviderRefusal) return new ApiError('GENERATION_REFUSED', 'Image generation refused', { model: modelId, message });
  if (error instanceof ProviderUnavailable) {
    const retryAfterSeconds = Math.max(1, Math.ceil((error.retryAfterMs ?? DEFAULT_RETRY_AFTER_SECONDS * 1000) / 1000));
    return new ApiError('SERVICE_UNAVAILABLE', 'Image provider temporarily unavailable', { model: modelId, message, retry_after: retryAfterSeconds }, { retryAfterSeconds });
  }
  return new ApiError('GENERATION_FAILED', 'Image generation failed', { message });
}
