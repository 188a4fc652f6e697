import type { TemplateRow } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { resolveModel } from '../models/resolve-model.js';
import { computeCost } from '../models/pricing.js';
import { checkPrompt } from '../prompt.js';
import { resolveSettings, type GenerationOptions } from './generation-settings.js';
import { imageKey, toImageRecord, type ImageRecord } from './image-record.js';
import { normalizeToPng } from './normalize-png.js';

export interface GenerateImageInput extends GenerationOptions {
  prompt?: string;
  model?: string;
  template_id?: string;
  metadata?: Record<string, unknown>;
}

/** Runs one prompt on its model's provider, stores the PNG, records the image. Not idempotent by design. */
export async function generateImage({ deps, ctx, input }: VerbArgs<GenerateImageInput>): Promise<ImageRecord> {
  const template = input.template_id === undefined ? undefined : await findTemplate(deps, ctx.userId, input.template_id);

  const modelId = input.model ?? template?.model;
  if (modelId === undefined) {
    throw new ApiError(400, 'INVALID_MODEL', 'Invalid model', { model: null, message: 'model is required unless template_id is given' });
  }
  const prompt = checkPrompt(input.prompt ?? template?.default_prompt);
  const model = resolveModel(deps.catalog, modelId, { requireAvailable: true });
  const settings = resolveSettings(model, [template?.parameters ?? {}, input], deps.randomSeed);

  const provider = deps.providers.get(model.provider);
  if (provider === undefined) throw new Error(`catalogue lists ${model.id} as available but provider ${model.provider} is missing`);

  const id = deps.ids.newId('img');
  const started = Date.now();
  let normalized;
  try {
    const output = await provider.generate({
      providerModel: model.provider_model,
      prompt,
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
    deps.logger.warn({ requestId: ctx.requestId, model: model.id, err: message }, 'image generation failed');
    throw new ApiError(500, 'GENERATION_FAILED', 'Image generation failed', { message });
  }

  const key = imageKey(id);
  await deps.blobs.put(key, normalized.png, 'image/png');
  const row = {
    id,
    user_id: ctx.userId,
    prompt,
    model: model.id,
    r2_key: key,
    width: normalized.width,
    height: normalized.height,
    cost: computeCost(model.pricing, { width: settings.width, height: settings.height, steps: settings.steps }),
    is_deleted: false,
    created_at: deps.clock.now().toISOString(),
    deleted_at: null,
    template_id: template?.id ?? null,
    metadata: input.metadata ?? null,
    parameters: settings.parameters,
  };
  try {
    await deps.db.images.insert(row);
  } catch (error) {
    // No record means no object: a failed insert must not leave an orphan behind a public URL.
    await deps.blobs.delete(key).catch(() => undefined);
    throw error;
  }
  deps.logger.info({ requestId: ctx.requestId, imageId: id, model: model.id, ms: Date.now() - started }, 'image generated');
  return toImageRecord(row, deps.blobs);
}

async function findTemplate(deps: VerbArgs<unknown>['deps'], userId: string, templateId: string): Promise<TemplateRow> {
  const template = await deps.db.templates.findVisible(userId, templateId);
  if (template === undefined) throw notFound('Template', 'template_id', templateId);
  return template;
}

