import { ApiFailure, asFailure } from '../lib/api-error.js';
import { changeSignal } from '../lib/change-signal.js';
import { api, dataOf } from './client.js';

/** How long a deleted image can be brought back: the API's delete has no undelete, so it waits this long. */
export const UNDO_SECONDS = 6;

export interface PendingDelete {
  token: number;
  ids: readonly string[];
  label: string;
}

export interface FailedDelete extends PendingDelete {
  failure: ApiFailure;
}

/**
 * Deletes waiting out their undo time. They live here rather than in a page, so leaving the gallery does
 * not lose them, and they are sent (keepalive) when the tab is closed.
 */
const waiting = new Map<number, PendingDelete & { timer: ReturnType<typeof setTimeout> }>();
const sending = new Set<string>();
const deleted = new Set<string>();
const failed = new Map<number, FailedDelete>();
const deletes = changeSignal();
const changed = deletes.notify;
let nextToken = 1;

export function scheduleDelete(ids: readonly string[], label: string): number {
  const token = nextToken++;
  const timer = setTimeout(() => void send(token, false), UNDO_SECONDS * 1000);
  waiting.set(token, { token, ids, label, timer });
  changed();
  return token;
}

export function undoDelete(token: number): void {
  const entry = waiting.get(token);
  if (entry === undefined) return;
  clearTimeout(entry.timer);
  waiting.delete(token);
  changed();
}

export function dismissFailure(token: number): void {
  failed.delete(token);
  changed();
}

async function send(token: number, keepalive: boolean): Promise<void> {
  const entry = waiting.get(token);
  if (entry === undefined) return;
  clearTimeout(entry.timer);
  waiting.delete(token);
  for (const id of entry.ids) sending.add(id);
  const results = await Promise.allSettled(entry.ids.map((id) => dataOf(api.DELETE('/api/images/{id}', { params: { path: { id } }, keepalive }))));
  const kept: string[] = [];
  let failure: ApiFailure | undefined;
  results.forEach((result, i) => {
    const id = entry.ids[i] ?? '';
    sending.delete(id);
    // Already gone (deleted elsewhere) is what was asked for.
    if (result.status === 'fulfilled' || (result.reason instanceof ApiFailure && result.reason.status === 404)) deleted.add(id);
    else {
      kept.push(id);
      failure ??= asFailure(result.reason);
    }
  });
  if (failure !== undefined) failed.set(token, { token, ids: kept, label: entry.label, failure });
  changed();
}

/** An image deleted, or about to be: lists leave it out. */
export const isDeleted = (id: string): boolean => deleted.has(id) || sending.has(id) || [...waiting.values()].some((entry) => entry.ids.includes(id));

/** Renders the component again whenever a delete is scheduled, undone, sent or fails. */
export function useDeletes(): { waiting: PendingDelete[]; failed: FailedDelete[] } {
  deletes.useChanges();
  return { waiting: [...waiting.values()], failed: [...failed.values()] };
}

window.addEventListener('pagehide', () => {
  for (const token of [...waiting.keys()]) void send(token, true);
});
