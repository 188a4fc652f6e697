import type { GenerationParameter, ImageParameters, Model, Template } from '../api/types.js';

/** The generation settings as a form holds them: text, so an empty box means "not given". */
export interface Draft {
  prompt: string;
  model: string;
  templateId: string;
  width: string;
  height: string;
  seed: string;
  negative_prompt: string;
  steps: string;
  guidance: string;
  /** Used only with an input image, by a model that takes it; 0 keeps the input, 1 ignores it. */
  strength: string;
  /** Empty = the API's default (PNG, the model's own quality and background). */
  output_format: string;
  output_compression: string;
  quality: string;
  background: string;
  /** '' or 1 to 3: partial images to see while the model draws, for models that send them. */
  partial_images: string;
}

export const DEFAULT_STRENGTH = '0.75';

export const emptyDraft = (model: string): Draft => ({
  prompt: '',
  model,
  templateId: '',
  width: '',
  height: '',
  seed: '',
  negative_prompt: '',
  steps: '',
  guidance: '',
  strength: DEFAULT_STRENGTH,
  output_format: '',
  output_compression: '',
  quality: '',
  background: '',
  partial_images: '',
});

const text = (value: number | string | undefined): string => (value === undefined ? '' : String(value));

/** A template's model, prompt and saved settings, with the template remembered (the request names it). */
export function draftFromTemplate(template: Template, base: Draft): Draft {
  const p: ImageParameters = template.parameters;
  return {
    ...base,
    templateId: template.id,
    prompt: template.default_prompt,
    model: template.model,
    width: text(p.width),
    height: text(p.height),
    seed: text(p.seed),
    negative_prompt: text(p.negative_prompt),
    steps: text(p.steps),
    guidance: text(p.guidance),
  };
}

export interface GenerationSettings {
  width?: number;
  height?: number;
  seed?: number;
  negative_prompt?: string;
  steps?: number;
  guidance?: number;
}

/**
 * The settings worth sending: only what the model takes, only boxes that were filled in. Numbers go as
 * typed (a seed of 1.5 is sent, and the API's answer says what is wrong with it).
 */
export function settingsFor(draft: Draft, model: Model | undefined): GenerationSettings {
  const takes = (name: GenerationParameter) => model === undefined || model.parameters.includes(name);
  const settings: GenerationSettings = {};
  const number = (value: string): number | undefined => (value.trim() === '' || Number.isNaN(Number(value)) ? undefined : Number(value));
  if (takes('width')) settings.width = number(draft.width);
  if (takes('height')) settings.height = number(draft.height);
  if (takes('seed')) settings.seed = number(draft.seed);
  if (takes('steps')) settings.steps = number(draft.steps);
  if (takes('guidance')) settings.guidance = number(draft.guidance);
  if (takes('negative_prompt') && draft.negative_prompt.trim() !== '') settings.negative_prompt = draft.negative_prompt;
  for (const key of Object.keys(settings) as (keyof GenerationSettings)[]) if (settings[key] === undefined) delete settings[key];
  return settings;
}

/** The images a generation starts from: gallery image ids (first = the one to edit) and an uploaded mask. */
export interface GenerationInputs {
  imageIds: readonly string[];
  maskImageId?: string | undefined;
}

/**
 * The body of POST /api/generate. Input images, mask and strength go only to a model that takes them (and
 * no more images than it takes); output settings only when chosen, so the API's defaults hold otherwise.
 */
export function generateRequest(draft: Draft, model: Model | undefined, inputs: GenerationInputs = { imageIds: [] }): Record<string, unknown> {
  const body: Record<string, unknown> = {
    prompt: draft.prompt,
    model: draft.model,
    ...(draft.templateId === '' ? {} : { template_id: draft.templateId }),
    ...settingsFor(draft, model),
  };
  const takes = model?.inputs;
  const imageIds = inputs.imageIds.slice(0, takes?.max_images ?? 0);
  if (takes !== undefined && imageIds.length > 0) {
    body.image_ids = imageIds;
    if (takes.mask && imageIds.length === 1 && inputs.maskImageId !== undefined) body.mask_image_id = inputs.maskImageId;
    if (takes.strength && draft.strength.trim() !== '') body.strength = Number(draft.strength);
  }
  const outputs = model?.outputs;
  const format = outputFormatFor(draft, model);
  if (format !== '') body.output_format = format;
  if (format !== '' && format !== 'png' && draft.output_compression.trim() !== '') body.output_compression = Number(draft.output_compression);
  if (draft.quality !== '' && outputs !== undefined && outputs.quality.length > 0) body.quality = draft.quality;
  if (draft.background !== '' && outputs?.transparent_background === true) body.background = draft.background;
  if (draft.partial_images !== '' && outputs?.partial_images === true) body.partial_images = Number(draft.partial_images);
  return body;
}

/** The chosen output format if the model can give it; '' (the API's default, PNG) otherwise. */
export const outputFormatFor = (draft: Draft, model: Model | undefined): string =>
  draft.output_format !== '' && model?.outputs?.formats.some((format) => format === draft.output_format) === true ? draft.output_format : '';
