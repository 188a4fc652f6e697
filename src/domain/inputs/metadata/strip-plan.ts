/**
 * What a stripped file is made of, in order: a byte range of the source to copy (`to` exclusive), or a few new
 * bytes (a rewritten header, a minimal EXIF block with the orientation).
 */
export type PlanPart = { from: number; to: number } | Uint8Array;

/** Kinds of metadata a plan removes, for logs and tests. */
export type RemovedMetadata = 'exif' | 'gps' | 'device' | 'xmp' | 'iptc' | 'text' | 'comment' | 'time' | 'other' | 'trailer';

export interface StripPlan {
  parts: PlanPart[];
  /** Each kind once, in the order found; empty when the file had nothing to remove (then `parts` is the whole file). */
  removed: RemovedMetadata[];
}

/** Collects a plan: adjacent kept ranges merge, so a file with nothing to remove is one range. */
export class PlanBuilder {
  private readonly parts: PlanPart[] = [];
  private readonly removed = new Set<RemovedMetadata>();

  keep(from: number, to: number): void {
    if (to <= from) return;
    const last = this.parts[this.parts.length - 1];
    if (last !== undefined && !(last instanceof Uint8Array) && last.to === from) last.to = to;
    else this.parts.push({ from, to });
  }

  insert(bytes: Uint8Array): void {
    this.parts.push(bytes);
  }

  remove(...kinds: RemovedMetadata[]): void {
    for (const kind of kinds) this.removed.add(kind);
  }

  build(): StripPlan {
    return { parts: this.parts, removed: [...this.removed] };
  }
}
