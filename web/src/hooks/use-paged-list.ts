import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { Pagination } from '../api/types.js';
import { asFailure, type ApiFailure } from '../lib/api-error.js';
import { nextPage, pageQuery, type NextPage } from '../lib/paging.js';

export interface PagedList<T> {
  items: T[];
  total: number | undefined;
  loading: boolean;
  failure: ApiFailure | undefined;
  hasMore: boolean;
  loadMore: () => void;
  /** Drops items (removed here, e.g. from a collection) without reloading. */
  remove: (keep: (item: T) => boolean) => void;
}

/**
 * A list loaded a page at a time, newest first: by cursor when the API answers with `next_cursor`, by
 * offset otherwise. New filters start it over; an answer to an older filter is ignored.
 */
export function usePagedList<T>(path: string, filters: Record<string, string | undefined>, pick: (body: Record<string, unknown>) => T[], pageSize = 24): PagedList<T> {
  const [items, setItems] = useState<T[]>([]);
  const [total, setTotal] = useState<number | undefined>(undefined);
  const [next, setNext] = useState<NextPage | undefined | 'start'>('start');
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | undefined>(undefined);
  const generation = useRef(0);
  const key = `${path}?${JSON.stringify(filters)}`;

  const load = async (start: NextPage | undefined, run: number) => {
    setLoading(true);
    setFailure(undefined);
    try {
      const body = await api.get<Record<string, unknown> & { pagination: Pagination }>(`${path}?${pageQuery(filters, pageSize, start).toString()}`);
      if (run !== generation.current) return;
      const page = pick(body);
      setItems((current) => (start === undefined ? page : [...current, ...page]));
      setTotal(body.pagination.total);
      setNext(nextPage(body.pagination, page.length));
    } catch (error) {
      if (run === generation.current) setFailure(asFailure(error));
    } finally {
      if (run === generation.current) setLoading(false);
    }
  };

  useEffect(() => {
    generation.current += 1;
    setItems([]);
    setTotal(undefined);
    setNext('start');
    void load(undefined, generation.current);
  }, [key]);

  return {
    items,
    total,
    loading,
    failure,
    hasMore: next !== undefined && next !== 'start',
    loadMore: () => {
      if (loading || next === undefined || next === 'start') return;
      void load(next, generation.current);
    },
    remove: (keep) => setItems((current) => current.filter(keep)),
  };
}
