import type { BatchItem, Generation, GenerationStatus } from '../api/types.js';

/** A partial image as the model drew it so far: its index from 0, ready for an img's src. */
export interface PartialImage {
  index: number;
  src: string;
}

/** What the app knows of a generation it follows: the generation, and the latest partial image while it draws. */
export interface GenerationView {
  generation: Generation;
  partial: PartialImage | undefined;
}

const RANK: Readonly<Record<GenerationStatus, number>> = { queued: 0, running: 1, succeeded: 2, failed: 2, cancelled: 2 };

/** Succeeded, failed or cancelled: nothing more will happen to it. */
export const isFinal = (status: GenerationStatus): boolean => RANK[status] === 2;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whole generations come as the GET's answer, a cancel's answer and the events that carry one (the first, the final). */
const isGeneration = (value: unknown): value is Generation =>
  isRecord(value) && typeof value.id === 'string' && typeof value.status === 'string' && value.status in RANK;

/**
 * A fresh read of the generation. Reads and events race (a GET answered just before the job started, read after
 * the started event), so a read never takes it back to an earlier state, nor its progress backwards.
 */
export function withSnapshot(view: GenerationView | undefined, generation: Generation): GenerationView {
  if (view === undefined || view.generation.id !== generation.id) return { generation, partial: undefined };
  const before = view.generation;
  if (RANK[generation.status] < RANK[before.status]) return view;
  const progress =
    generation.status === before.status && before.progress !== undefined ? Math.max(before.progress, generation.progress ?? 0) : generation.progress;
  const next: Generation = { ...generation };
  if (progress !== undefined) next.progress = progress;
  return { generation: next, partial: isFinal(generation.status) ? undefined : view.partial };
}

/**
 * One message of GET /api/generations/{id}/events applied to what is known. The first and the final events carry
 * the whole generation; `generation.started` (when it comes from the job) carries nothing, `generation.progress`
 * `{ progress }`, `generation.partial_image` `{ index, b64_json }`. Anything else is left aside.
 */
export function applyEvent(view: GenerationView | undefined, event: string, data: unknown): GenerationView | undefined {
  if (isGeneration(data)) return withSnapshot(view, data);
  if (view === undefined || isFinal(view.generation.status) || !isRecord(data)) return view;
  const generation = view.generation;
  if (event === 'generation.started' && generation.status === 'queued') {
    const next: Generation = { ...generation, status: 'running', started_at: generation.started_at ?? new Date().toISOString() };
    delete next.queue_position;
    return { ...view, generation: next };
  }
  if (event === 'generation.progress' && typeof data.progress === 'number' && data.progress >= 0 && data.progress <= 1) {
    return { ...view, generation: { ...generation, progress: Math.max(generation.progress ?? 0, data.progress) } };
  }
  if (event === 'generation.partial_image' && typeof data.index === 'number' && typeof data.b64_json === 'string') {
    return { ...view, partial: { index: data.index, src: imageDataUrl(data.b64_json) } };
  }
  return view;
}

/** The type from the first bytes (a partial comes in the format asked: PNG, JPEG or WebP), so the browser is told true. */
export function imageDataUrl(base64: string): string {
  const type = base64.startsWith('/9j/') ? 'image/jpeg' : base64.startsWith('UklGR') ? 'image/webp' : 'image/png';
  return `data:${type};base64,${base64}`;
}

/** "Queued: 2 generations start before this one" in words a person reads at a glance. */
export function queueText(position: number | undefined): string {
  if (position === undefined) return 'Queued';
  if (position === 0) return 'Queued: next to start';
  return `Queued: ${position} ${position === 1 ? 'generation starts' : 'generations start'} before this one`;
}

/** A batch's prompts whose generations are worth following live: running ones first (they move), then pending ones. */
export function generationsToFollow(items: readonly BatchItem[]): string[] {
  const ids = (status: BatchItem['status']) =>
    items.flatMap((item) => (item.status === status && typeof item.generation_id === 'string' ? [item.generation_id] : []));
  return [...ids('running'), ...ids('pending')];
}
