import type { TimeRange } from './common.js';

export interface UsageBucket {
  key: string;
  images: number;
  deleted_images: number;
  cost: number;
}

/** One model's images on one UTC day. */
export interface DayModelBucket {
  day: string;
  model: string;
  images: number;
  deleted_images: number;
  cost: number;
}

export interface UsageSummary {
  images: number;
  deleted_images: number;
  cost: number;
  by_model: UsageBucket[];
  by_day: UsageBucket[];
  /** Per day, then per model: what a chart stacked by model needs. */
  by_day_and_model: DayModelBucket[];
}

export interface AnalyticsRepository {
  /** Every image the user generated in the range (with one key, when given), soft-deleted ones included (they were paid for). */
  usage(userId: string, range: TimeRange, keyId?: string): Promise<UsageSummary>;
}
