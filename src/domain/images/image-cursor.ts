import type { ImagePosition } from '../../ports/database.js';
import { invalidParameter } from '../errors.js';
import { textProblem } from '../json-shape.js';

/**
 * An opaque cursor: where the last image of a page sits in the newest-first order. Base64url of a small
 * JSON array, built with btoa/atob so the domain runs on Workers too; clients pass it back unchanged.
 */
export function encodeCursor(position: ImagePosition): string {
  return btoa(JSON.stringify([position.created_at, position.id]))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function decodeCursor(cursor: string): ImagePosition {
  try {
    const json = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const value: unknown = JSON.parse(json);
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && !Number.isNaN(Date.parse(value[0]))) {
      // Text no image can have (a NUL, which PostgreSQL refuses, or a lone surrogate) was never given out.
      if (textProblem(value[0]) === undefined && textProblem(value[1]) === undefined) return { created_at: value[0], id: value[1] };
    }
  } catch {
    // Not base64 or not JSON: the same answer as any other cursor this API did not give out.
  }
  throw invalidParameter('cursor', 'cursor must be a pagination.next_cursor from an earlier page, passed back unchanged');
}
