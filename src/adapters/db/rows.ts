import type { Selectable } from 'kysely';
import type { ImageParameters, ImageRow, TemplateRow } from '../../ports/database.js';
import type { ImagesTable, TemplatesTable } from './schema.js';

export function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function parseParameters(text: string): ImageParameters {
  return (parseJsonObject(text) ?? {}) as ImageParameters;
}

export function toImageRow(row: Selectable<ImagesTable>): ImageRow {
  const { key_id: keyId, ...rest } = row;
  return {
    ...rest,
    ...(keyId === null ? {} : { key_id: keyId }),
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
