import type { Selectable } from 'kysely';
import type { ImageParameters, ImageRow, TemplateRow, UploadRole } from '../../ports/database.js';
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
  const image = buildImageRow(row, row.user_id, Number(row.is_deleted) === 1, row.deleted_at);
  if (row.key_id !== null) image.key_id = row.key_id;
  if (row.content_hash !== null) image.content_hash = row.content_hash;
  return image;
}

/** The columns a gallery page selects: what a live image of a known user shows (see images-repository.ts). */
export type ListedImageColumns = Omit<Selectable<ImagesTable>, 'user_id' | 'is_deleted' | 'deleted_at' | 'key_id' | 'prompt_folded' | 'content_hash'>;

/**
 * A listed row as the live image of `userId` it is. Not `toImageRow({ ...row, user_id, … })`: a spread per row was
 * a sixth of the time of a page read from the database (profiled), as much as the query.
 */
export function toLiveImageRow(row: ListedImageColumns, userId: string): ImageRow {
  return buildImageRow(row, userId, false, null);
}

// Built field by field (prompt_folded serves search only, it is not part of the image): the hottest mapping of all.
function buildImageRow(row: ListedImageColumns, userId: string, isDeleted: boolean, deletedAt: string | null): ImageRow {
  return {
    id: row.id,
    user_id: userId,
    prompt: row.prompt,
    model: row.model,
    r2_key: row.r2_key,
    width: Number(row.width),
    height: Number(row.height),
    cost: Number(row.cost),
    is_deleted: isDeleted,
    created_at: row.created_at,
    deleted_at: deletedAt,
    template_id: row.template_id,
    metadata: parseJsonObject(row.metadata),
    parameters: parseParameters(row.parameters),
    kind: row.kind === 'upload' ? 'upload' : 'generated',
    source_image_ids: parseIdList(row.source_image_ids),
    has_thumbnails: Number(row.has_thumbnails) === 1,
    upload_role: hiddenRole(row.upload_role),
  };
}

/** The stored role of an upload a list leaves out; anything else is stored as null (see ImagesTable.upload_role). */
function hiddenRole(role: string | null | undefined): UploadRole | undefined {
  return role === 'input' || role === 'mask' ? role : undefined;
}

export function fromImageRow(row: ImageRow): Selectable<ImagesTable> {
  return {
    ...row,
    key_id: row.key_id ?? null,
    prompt_folded: foldForSearch(row.prompt),
    kind: row.kind ?? 'generated',
    source_image_ids: row.source_image_ids === undefined || row.source_image_ids.length === 0 ? null : JSON.stringify(row.source_image_ids),
    is_deleted: row.is_deleted ? 1 : 0,
    has_thumbnails: row.has_thumbnails === true ? 1 : 0,
    upload_role: hiddenRole(row.upload_role) ?? null,
    content_hash: row.content_hash ?? null,
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
