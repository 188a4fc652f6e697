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
    by_day_and_model: usage.by_day_and_model.map((b) => ({ date: b.day, model: b.model, images: b.images, deleted_images: b.deleted_images, cost: usd(b.cost) })),
  };
}

export interface CostReport {
  total_cost: number;
  total_images: number;
  average_cost: number;
  currency: 'USD';
  from: string | null;
  to: string | null;
  by_model: { model: string; images: number; cost: number; average_cost: number }[];
  by_day: { date: string; images: number; cost: number; average_cost: number }[];
}

export async function getCosts({ deps, ctx, input }: VerbArgs<RangeInput>): Promise<CostReport> {
  const range = toTimeRange(input);
  const usage = await deps.db.analytics.usage(ctx.userId, range);
  const bucket = (b: UsageBucket) => ({ images: b.images, cost: usd(b.cost), average_cost: average(b.cost, b.images) });
  return {
    total_cost: usd(usage.cost),
    total_images: usage.images,
    average_cost: average(usage.cost, usage.images),
    currency: 'USD',
    from: range.from ?? null,
    to: range.to ?? null,
    by_model: usage.by_model.map((b) => ({ model: b.key, ...bucket(b) })),
    by_day: usage.by_day.map((b) => ({ date: b.key, ...bucket(b) })),
  };
}
