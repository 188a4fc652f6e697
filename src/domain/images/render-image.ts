import type { ImageRow } from '../../ports/database.js';
import { ProviderRefusal } from '../../ports/image-provider.js';
import type { Deps, RequestContext } from '../context.js';
import { ApiError } from '../errors.js';
import { computeCost } from '../models/pricing.js';
import { imageKey } from './image-record.js';
import { normalizeToPng } from './normalize-png.js';
import type { GenerationPlan } from './plan-generation.js';

/**
 * Calls the provider and stores the PNG under the image's own key; returns the row to record.
 * Storing under a key fixed by the id makes a retry overwrite its own object, never add a second one.
 */
export async function renderImage(
  deps: Pick<Deps, 'providers' | 'blobs' | 'logger' | 'clock'>,
  ctx: RequestContext,
  plan: GenerationPlan,
  imageId: string,
): Promise<ImageRow> {
  const { model, settings } = plan;
  const provider = deps.providers.get(model.provider);
  if (provider === undefined) throw new Error(`catalogue lists ${model.id} as available but provider ${model.provider} is missing`);

  const started = Date.now();
  let normalized;
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
    });
    normalized = await normalizeToPng(output.bytes);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.logger.warn({ requestId: ctx.requestId, model: model.id, imageId, err: message }, 'image generation failed');
    // A refusal (content filter, a parameter the provider rejects) is about this request, so it is a 4xx.
    if (error instanceof ProviderRefusal) throw new ApiError('GENERATION_REFUSED', 'Image generation refused', { model: model.id, message });
    throw new ApiError('GENERATION_FAILED', 'Image generation failed', { message });
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
    cost: computeCost(model.pricing, { width: settings.width, height: settings.height, steps: settings.steps }),
    is_deleted: false,
    created_at: deps.clock.now().toISOString(),
    deleted_at: null,
    template_id: plan.template?.id ?? null,
    metadata: plan.metadata,
    parameters: settings.parameters,
  };
}
