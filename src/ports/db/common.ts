export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface TimeRange {
  /** Inclusive ISO timestamp. */
  from?: string;
  /** Exclusive ISO timestamp. */
  to?: string;
}
