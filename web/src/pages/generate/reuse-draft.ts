import type { Image, Model } from '../../api/types.js';
import type { Draft } from '../../lib/draft.js';

const text = (value: number | string | undefined): string => (value === undefined ? '' : String(value));

/** The model an image was made with, when this server still offers it (shut-down models are not). */
export const offeredModel = (image: Image, models: readonly Model[]): Model | undefined =>
  models.find((model) => model.id === image.model && model.lifecycle !== 'shut_down');

/**
 * "Reuse prompt": the image's prompt, model and the settings it was made with (as recorded, seed included:
 * the same seed gives the same picture on a deterministic model; clear it for a new one). A model no longer
 * offered leaves the form's own choice, and its size, which may not suit another model.
 */
export function draftFromImage(image: Image, base: Draft, models: readonly Model[]): Draft {
  const p = image.parameters;
  const model = offeredModel(image, models);
  return {
    ...base,
    prompt: image.prompt,
    model: model?.id ?? base.model,
    width: model === undefined ? '' : text(p.width),
    height: model === undefined ? '' : text(p.height),
    seed: text(p.seed),
    negative_prompt: text(p.negative_prompt),
    steps: text(p.steps),
    guidance: text(p.guidance),
    strength: p.strength === undefined ? base.strength : String(p.strength),
    output_format: text(p.output_format),
    output_compression: text(p.output_compression),
    quality: text(p.quality),
    background: text(p.background),
  };
}
