import type { PageRequest, TemplateRow } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import type { GenerationOptions } from '../images/generation-settings.js';
import { paginate, type Pagination } from '../pagination.js';
import { SYSTEM_USER_ID, toTemplateRecord, type TemplateRecord } from './template-record.js';
import { validateTemplate } from './validate-template.js';

export interface TemplateFields {
  name: string;
  model: string;
  default_prompt: string;
  parameters?: GenerationOptions;
}

export async function createTemplate({ deps, ctx, input }: VerbArgs<TemplateFields>): Promise<TemplateRecord> {
  const checked = validateTemplate(deps.catalog, { ...input, parameters: input.parameters ?? {} });
  const now = deps.clock.now().toISOString();
  const row: TemplateRow = {
    id: deps.ids.newId('tmpl'),
    user_id: ctx.userId,
    name: input.name,
    model: input.model,
    ...checked,
    created_at: now,
    updated_at: now,
  };
  await deps.db.templates.insert(row);
  return toTemplateRecord(row);
}

export async function listTemplates({ deps, ctx, input }: VerbArgs<PageRequest>): Promise<{ templates: TemplateRecord[]; pagination: Pagination }> {
  const { items, pagination } = paginate(await deps.db.templates.listVisible(ctx.userId, input), input, toTemplateRecord);
  return { templates: items, pagination };
}

export async function getTemplate({ deps, ctx, input }: VerbArgs<{ templateId: string }>): Promise<TemplateRecord> {
  return toTemplateRecord(await findVisible({ deps, ctx, input }));
}

/** Partial update: fields left out keep their values; the result is validated as a whole. */
export async function updateTemplate({ deps, ctx, input }: VerbArgs<{ templateId: string; changes: Partial<TemplateFields> }>): Promise<TemplateRecord> {
  const current = await findOwned({ deps, ctx, input });
  const merged = {
    name: input.changes.name ?? current.name,
    model: input.changes.model ?? current.model,
    default_prompt: input.changes.default_prompt ?? current.default_prompt,
    parameters: input.changes.parameters ?? current.parameters,
  };
  const checked = validateTemplate(deps.catalog, merged);
  const row: TemplateRow = { ...current, ...merged, ...checked, updated_at: deps.clock.now().toISOString() };
  await deps.db.templates.update(row);
  return toTemplateRecord(row);
}

export async function deleteTemplate({ deps, ctx, input }: VerbArgs<{ templateId: string }>): Promise<{ id: string; deleted: true }> {
  await findOwned({ deps, ctx, input });
  await deps.db.templates.delete(ctx.userId, input.templateId);
  return { id: input.templateId, deleted: true };
}

async function findVisible({ deps, ctx, input }: VerbArgs<{ templateId: string }>): Promise<TemplateRow> {
  const row = await deps.db.templates.findVisible(ctx.userId, input.templateId);
  if (row === undefined) throw notFound('Template', 'template_id', input.templateId);
  return row;
}

async function findOwned(args: VerbArgs<{ templateId: string }>): Promise<TemplateRow> {
  const row = await findVisible(args);
  if (row.user_id === SYSTEM_USER_ID && args.ctx.userId !== SYSTEM_USER_ID) {
    throw new ApiError('FORBIDDEN', 'Sample templates are read-only', {
      template_id: row.id,
      message: 'pre-loaded templates (user_id "system") cannot be changed or deleted; create your own with POST /api/templates',
    });
  }
  return row;
}
