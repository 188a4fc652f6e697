import { invalidParameter } from '../errors.js';
import { findShapeProblem } from '../json-shape.js';

/** Serialised as UTF-8 JSON. Metadata is a label on the image, not a document store. */
export const METADATA_MAX_BYTES = 16 * 1024;
/** The metadata object itself is level 1. */
export const METADATA_MAX_DEPTH = 8;

/**
 * Checked before anything is generated or stored: metadata that cannot be stored and read back safely
 * (too deep to serialise, too large, invalid text) is refused with a 400, never half-accepted.
 */
export function checkMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (metadata === undefined) return null;
  const problem = findShapeProblem(metadata, { maxDepth: METADATA_MAX_DEPTH }, 'metadata');
  if (problem !== undefined) {
    throw invalidParameter('metadata', `${problem.path} ${problem.message}; metadata may nest at most ${METADATA_MAX_DEPTH} levels`);
  }
  const bytes = new TextEncoder().encode(JSON.stringify(metadata)).length;
  if (bytes > METADATA_MAX_BYTES) {
    throw invalidParameter('metadata', `metadata must be at most ${METADATA_MAX_BYTES} bytes as JSON (got ${bytes})`);
  }
  return metadata;
}
