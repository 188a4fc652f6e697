import type { TemplateRow } from '../../ports/database.js';
import type { Deps } from '../context.js';
import { notFound } from '../errors.js';
import type { CatalogEntry } from '../models/catalog.js';
import { resolveModel } from '../models/resolve-model.js';
import { checkStorable } from '../json-shape.js';
import { checkPrompt } from '../prompt.js';
import { checkMetadata } from './metadata.js';
import { resolveSettings, type GenerationOptions, type ResolvedSettings } from './generation-settings.js';

export interface GenerationRequest extends GenerationOptions {
  prompt?: string;
  model?: string;
  template_id?: string;
  metadata?: Record<string, unknown>;
}

/** Everything checked and resolved before any provider is called. */
export interface GenerationPlan {
  prompt: string;
  model: CatalogEntry;
  settings: ResolvedSettings;
  template: TemplateRow | undefined;
  metadata: Record<string, unknown> | null;
}

/** Validation shared by single generations and batches: every refusal happens here, before any work. */
export async function planGeneration(deps: Pick<Deps, 'db' | 'catalog' | 'randomSeed' | 'clock'>, userId: string, input: GenerationRequest): Promise<GenerationPlan> {
  // First, whoever called (HTTP, MCP, CLI, a batch): PostgreSQL refuses a NUL only at the insert, after the
  // provider was paid, and a template lookup with one fails outright. Metadata has its own, deeper rule below.
  const { metadata: _metadata, ...fields } = input;
  checkStorable(fields, { maxDepth: 32 }, 'the generation request');
  const template = input.template_id === undefined ? undefined : await findTemplate(deps, userId, input.template_id);
  // The request's model, else the template's, else the operator's DEFAULT_MODEL.
  const modelId = input.model ?? template?.model ?? deps.catalog.defaultModelId;
  const prompt = checkPrompt(input.prompt ?? template?.default_prompt);
  const model = resolveModel(deps.catalog, modelId, { requireAvailable: true, now: deps.clock.now() });
  const settings = resolveSettings(model, [template?.parameters ?? {}, input], deps.randomSeed);
  return { prompt, model, settings, template, metadata: checkMetadata(input.metadata) };
}

async function findTemplate(deps: Pick<Deps, 'db'>, userId: string, templateId: string): Promise<TemplateRow> {
  const template = await deps.db.templates.findVisible(userId, templateId);
  if (template === undefined) throw notFound('Template', 'template_id', templateId);
  return template;
}
