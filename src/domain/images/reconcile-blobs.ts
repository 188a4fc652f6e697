import type { Deps } from '../context.js';
import { IMAGE_KEY_PREFIX, imageIdOfKey } from './image-record.js';
import { UPLOAD_KEY_PREFIX } from '../inputs/upload-image.js';
import { imageIdOfThumbnail, THUMBNAIL_KEY_PREFIX } from './thumbnails.js';

export interface ReconcileOptions {
  /**
   * Only leftovers older than this are removed: another process may have stored an object and not yet
   * written its record, or be halfway through a write.
   */
  graceSeconds: number;
}

export interface ReconcileReport {
  /** Objects under the image prefixes that no live image points at, and thumbnails of images that are not live. */
  orphans: string[];
  /** Unfinished writes (temporary files), as the store names them. */
  incomplete: string[];
}

/** Keys shown in one log line; the counts are always complete. */
const LOGGED_KEYS = 100;

/**
 * Removes what a stopped process (kill -9, power loss) left in the blob store: writes it never finished,
 * objects it stored for an image whose record it never wrote (or whose record failed in an outage and whose
 * batch prompt then failed for good), and the files of deleted images that their delete could not remove. Runs at start, before this process stores anything, and then
 * periodically in workers (ORPHAN_SWEEP_SECONDS); the grace spares writes whose record is on its way. A paid answer
 * whose charge is still reserved is kept however old: its record failed in an outage that may outlast the grace, and
 * the rerun records that object rather than pay the provider again (see renderImage).
 */
export async function reconcileBlobs(deps: Pick<Deps, 'db' | 'blobs' | 'clock' | 'logger'>, options: ReconcileOptions): Promise<ReconcileReport> {
  const olderThan = new Date(deps.clock.now().getTime() - options.graceSeconds * 1000);
  const incomplete = await deps.blobs.removeIncomplete(olderThan);
  const orphans: string[] = [];
  for (const prefix of [IMAGE_KEY_PREFIX, UPLOAD_KEY_PREFIX, THUMBNAIL_KEY_PREFIX]) {
    for await (const page of deps.blobs.list(prefix)) {
      const candidates = page.filter((object) => object.modifiedAt < olderThan).map((object) => object.key);
      if (candidates.length === 0) continue;
      const recorded = await recordedKeys(deps, prefix, candidates);
      for (const key of candidates) {
        if (recorded.has(key)) continue;
        await deps.blobs.delete(key);
        orphans.push(key);
      }
    }
  }

  if (orphans.length + incomplete.length > 0) {
    deps.logger.warn(
      {
        removedOrphans: orphans.length,
        removedIncomplete: incomplete.length,
        orphans: orphans.slice(0, LOGGED_KEYS),
        incomplete: incomplete.slice(0, LOGGED_KEYS),
        olderThan: olderThan.toISOString(),
      },
      'blob store cleaned: removed objects without an image record and unfinished writes left by a stopped process',
    );
  } else {
    deps.logger.debug({ olderThan: olderThan.toISOString() }, 'blob store checked: nothing left over');
  }
  return { orphans, incomplete };
}

/**
 * Which of these keys belong to a live image: an image's object by its key, a thumbnail by its image's id (kept as
 * long as the original is). A key under the thumbnail prefix that names no live image is nobody's. A generated
 * image's object whose charge is still reserved is kept for the record on its way.
 */
async function recordedKeys(deps: Pick<Deps, 'db'>, prefix: string, keys: string[]): Promise<Set<string>> {
  if (prefix === IMAGE_KEY_PREFIX) {
    // Asked before the records: a charge is settled in the same write as its image's record, so an answer
    // recorded between the two reads is seen by one or the other.
    const awaited = await deps.db.charges.reservedImageIds(keys.map(imageIdOfKey).filter((id) => id !== undefined));
    const live = await deps.db.images.liveKeys(keys);
    return new Set(keys.filter((key) => live.has(key) || awaited.has(imageIdOfKey(key) ?? '')));
  }
  if (prefix !== THUMBNAIL_KEY_PREFIX) return deps.db.images.liveKeys(keys);
  const ids = await deps.db.images.liveIds(keys.map(imageIdOfThumbnail).filter((id) => id !== undefined));
  return new Set(keys.filter((key) => ids.has(imageIdOfThumbnail(key) ?? '')));
}
