import { useEffect, useRef, useState } from 'preact/hooks';
import type { Pagination } from '../api/types.js';
import { asFailure, type ApiFailure } from '../lib/api-error.js';
import { nextPage, pageParams, type NextPage, type PageParams } from '../lib/paging.js';

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

/** One page as a list's loader answers it: its items, and the pagination the API sent with them. */
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/**
 * A list loaded a page at a time, newest first: by cursor when the API answers with `next_cursor`, by offset
 * otherwise. `loadPage` asks the API for one page (its filters with the page's parameters after them); new `deps`
 * (the filters, the collection) start it over, and an answer to older ones is ignored.
 */
export function usePagedList<T>(loadPage: (page: PageParams) => Promise<Page<T>>, deps: readonly unknown[], pageSize = 24): PagedList<T> {
  const [items, setItems] = useState<T[]>([]);
  const [total, setTotal] = useState<number | undefined>(undefined);
  const [next, setNext] = useState<NextPage | undefined | 'start'>('start');
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | undefined>(undefined);
  const generation = useRef(0);

  const load = async (start: NextPage | undefined, run: number) => {
    setLoading(true);
    setFailure(undefined);
    try {
      const { items: page, pagination } = await loadPage(pageParams(pageSize, start));
      if (run !== generation.current) return;
      setItems((current) => (start === undefined ? page : [...current, ...page]));
      setTotal(pagination.total);
      setNext(nextPage(pagination, page.length));
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
  }, deps);

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
