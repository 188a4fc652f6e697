import type { Selectable } from 'kysely';
import type { ImageParameters, ImageRow, TemplateRow } from '../../ports/database.js';
import type { ImagesTable, TemplatesTable } from './schema.js';
import { foldForSearch } from './search-fold.js';

export function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function parseIdList(text: string | null): string[] {
  if (text === null) return [];
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

function parseParameters(text: string): ImageParameters {
  return (parseJsonObject(text) ?? {}) as ImageParameters;
}

export function toImageRow(row: Selectable<ImagesTable>): ImageRow {
  // prompt_folded serves search only; it is not part of the image.
  const { key_id: keyId, prompt_folded: _folded, kind, source_image_ids: sources, ...rest } = row;
  return {
    ...rest,
    ...(keyId === null ? {} : { key_id: keyId }),
    kind: kind === 'upload' ? 'upload' : 'generated',
    source_image_ids: parseIdList(sources),
    width: Number(row.width),
    height: Number(row.height),
    cost: Number(row.cost),
    is_deleted: Number(row.is_deleted) === 1,
    metadata: parseJsonObject(row.metadata),
    parameters: parseParameters(row.parameters),
  };
}

export function fromImageRow(row: ImageRow): Selectable<ImagesTable> {
  return {
    ...row,
    key_id: row.key_id ?? null,
    prompt_folded: foldForSearch(row.prompt),
    kind: row.kind ?? 'generated',
    source_image_ids: row.source_image_ids === undefined || row.source_image_ids.length === 0 ? null : JSON.stringify(row.source_image_ids),
    is_deleted: row.is_deleted ? 1 : 0,
    metadata: row.metadata === null ? null : JSON.stringify(row.metadata),
    parameters: JSON.stringify(row.parameters),
  };
}

export function toTemplateRow(row: Selectable<TemplatesTable>): TemplateRow {
  return { ...row, parameters: parseParameters(row.parameters) };
}

export function fromTemplateRow(row: TemplateRow): Selectable<TemplatesTable> {
  return { ...row, parameters: JSON.stringify(row.parameters) };
}

/** COUNT and SUM come back as strings from PostgreSQL (bigint/numeric) and as numbers from SQLite. */
export const toNumber = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
