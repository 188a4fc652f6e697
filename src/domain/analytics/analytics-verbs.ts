import type { UsageBucket } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { toTimeRange, type RangeInput } from './range.js';

const usd = (value: number): number => Math.round(value * 1e9) / 1e9;
const average = (cost: number, images: number): number => (images === 0 ? 0 : usd(cost / images));

export interface UsageReport {
  user_id: string;
  from: string | null;
  to: string | null;
  total_images: number;
  active_images: number;
  deleted_images: number;
  total_cost: number;
  by_model: { model: string; images: number; deleted_images: number; cost: number }[];
  by_day: { date: string; images: number; deleted_images: number; cost: number }[];
  by_day_and_model: { date: string; model: string; images: number; deleted_images: number; cost: number }[];
}

/** Every image generated in the range; soft-deleted ones count because they were generated and paid for. */
export async function getUsage({ deps, ctx, input }: VerbArgs<RangeInput>): Promise<UsageReport> {
  const range = toTimeRange(input);
  const usage = await deps.db.analytics.usage(ctx.userId, range);
  const bucket = (b: UsageBucket) => ({ images: b.images, deleted_images: b.deleted_images, cost: usd(b.cost) });
  return {
    user_id: ctx.userId,
    from: range.from ?? null,
    to: range.to ?? null,
    total_images: usage.images,
    active_images: usage.images - usage.deleted_images,
    deleted_images: usage.deleted_images,
    total_cost: usd(usage.cost),
    by_model: usage.by_model.map((b) => ({ model: b.key, ...bucket(b) })),
    by_day: usage.by_day.map((b) => ({ date: b.key, ...bucket(b) })),
    by_day_and_model: usage.by_day_and_model.map((b) => ({
      date: b.day,
      model: b.model,
      images: b.images,
      deleted_images: b.deleted_images,
      cost: usd(b.cost),
    })),
  };
}

export interface LedgerTotal {
  charges: number;
  cost: number;
}

export interface CostReport {
  total_cost: number;
  total_images: number;
  average_cost: number;
  currency: 'USD';
  from: string | null;
  to: string | null;
  /** The key the report is limited to, or null for every key of the user. */
  key_id: string | null;
  by_model: { model: string; images: number; cost: number; average_cost: number }[];
  by_day: { date: string; images: number; cost: number; average_cost: number }[];
  /** Paid calls that left no image, counted in the costs above, and reservations still in flight (not counted yet). */
  ledger: { charged_without_image: LedgerTotal; uncertain: LedgerTotal; in_flight: LedgerTotal };
}

export interface CostsInput extends RangeInput {
  key_id?: string;
}

/**
 * What the user's images cost, plus what the ledger says was paid without an image (a job cancelled or timed
 * out after the provider accepted it, an answer lost on the way back): the total an invoice should show.
 */
export async function getCosts({ deps, ctx, input }: VerbArgs<CostsInput>): Promise<CostReport> {
  const range = toTimeRange(input);
  const [usage, ledger] = await Promise.all([
    deps.db.analytics.usage(ctx.userId, range, input.key_id),
    deps.db.charges.buckets(ctx.userId, { ...range, ...(input.key_id === undefined ? {} : { key_id: input.key_id }) }),
  ]);
  const byModel = new Map(usage.by_model.map((b) => [b.key, { images: b.images, cost: b.cost }]));
  const byDay = new Map(usage.by_day.map((b) => [b.key, { images: b.images, cost: b.cost }]));
  const totals = { charged_without_image: { charges: 0, cost: 0 }, uncertain: { charges: 0, cost: 0 }, in_flight: { charges: 0, cost: 0 } };
  for (const cell of ledger) {
    const total =
      cell.outcome === 'charged_no_image'
        ? totals.charged_without_image
        : cell.outcome === 'uncertain'
          ? totals.uncertain
          : cell.outcome === 'reserved'
            ? totals.in_flight
            : undefined;
    if (total === undefined) continue;
    total.charges += cell.charges;
    total.cost += cell.cost_usd;
    if (cell.outcome === 'reserved') continue;
    addCost(byModel, cell.model, cell.cost_usd);
    addCost(byDay, cell.day, cell.cost_usd);
  }
  const totalCost = usage.cost + totals.charged_without_image.cost + totals.uncertain.cost;
  const bucket = (b: { images: number; cost: number }) => ({ images: b.images, cost: usd(b.cost), average_cost: average(b.cost, b.images) });
  const ledgerTotal = (t: LedgerTotal): LedgerTotal => ({ charges: t.charges, cost: usd(t.cost) });
  return {
    total_cost: usd(totalCost),
    total_images: usage.images,
    average_cost: average(totalCost, usage.images),
    currency: 'USD',
    from: range.from ?? null,
    to: range.to ?? null,
    key_id: input.key_id ?? null,
    by_model: [...byModel].sort(([a], [b]) => codePointOrder(a, b)).map(([model, b]) => ({ model, ...bucket(b) })),
    by_day: [...byDay].sort(([a], [b]) => codePointOrder(a, b)).map(([date, b]) => ({ date, ...bucket(b) })),
    ledger: {
      charged_without_image: ledgerTotal(totals.charged_without_image),
      uncertain: ledgerTotal(totals.uncertain),
      in_flight: ledgerTotal(totals.in_flight),
    },
  };
}

/** As the usage report sorts: by code point, the same on every database. */
const codePointOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function addCost(map: Map<string, { images: number; cost: number }>, key: string, cost: number): void {
  const seen = map.get(key);
  if (seen === undefined) map.set(key, { images: 0, cost });
  else seen.cost += cost;
}
