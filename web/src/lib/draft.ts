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
}

export const emptyDraft = (model: string): Draft => ({ prompt: '', model, templateId: '', width: '', height: '', seed: '', negative_prompt: '', steps: '', guidance: '' });

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

/** The body of POST /api/generate. */
export function generateRequest(draft: Draft, model: Model | undefined): Record<string, unknown> {
  return {
    prompt: draft.prompt,
    model: draft.model,
    ...(draft.templateId === '' ? {} : { template_id: draft.templateId }),
    ...settingsFor(draft, model),
  };
}
