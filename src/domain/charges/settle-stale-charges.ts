import type { Deps } from '../context.js';

/** A batch worker resumes a known provider job within minutes of a restart; a day later nobody will. */
const RESUMABLE_FOR_MS = 24 * 3_600_000;

/**
 * Reservations a dead process left behind (kill -9 mid-call on `POST /api/generate`) would hold their keys'
 * budgets and show as in flight forever. Past any deadline a live call could still be within, they are settled
 * as uncertain: the provider may have billed them, so they keep counting at their estimate.
 */
export async function settleStaleCharges(deps: Pick<Deps, 'db' | 'clock' | 'logger'>, options: { callDeadlineMs: number }): Promise<number> {
  const now = deps.clock.now().getTime();
  const staleAfterMs = Math.max(3_600_000, 2 * options.callDeadlineMs);
  const settled = await deps.db.charges.settleStale(
    { before: new Date(now - staleAfterMs).toISOString(), withJobBefore: new Date(now - Math.max(RESUMABLE_FOR_MS, staleAfterMs)).toISOString() },
    new Date(now).toISOString(),
  );
  if (settled > 0)
    deps.logger.warn({ settled }, 'settled charges a stopped process left reserved as uncertain; see GET /api/analytics/charges?outcome=uncertain');
  return settled;
}
