import { useEffect, useRef, useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import { isDeleted, scheduleDelete, useDeletes } from '../../api/pending-deletes.js';
import type { ImageKind } from '../../api/types.js';
import { ImageGrid } from '../../components/image-grid.js';
import { LoadMore } from '../../components/load-more.js';
import { useHolds } from '../../components/only.js';
import { PageHeading } from '../../components/page-heading.js';
import { useImageModels } from '../../hooks/use-image-models.js';
import { usePagedList } from '../../hooks/use-paged-list.js';
import { plural } from '../../lib/format.js';
import { filterValue } from '../../lib/paging.js';
import { Link, navigate } from '../../router.js';
import type { PageProps } from '../types.js';
import { BulkBar } from './bulk-bar.js';
import { closeDetails, detailsHref, openDetails, showDetails } from './details-address.js';
import { deleteLabel, stepsThrough } from './dialog-steps.js';
import { GalleryFilterForm, type GalleryFilters } from './gallery-filters.js';
import { ImageDialog } from './image-dialog.js';

/**
 * The filters that are set, as GET /api/images takes them. The kind goes as the address has it: an unknown one is the
 * server's to refuse (its 400 is shown over the grid), as for a malformed date.
 */
const imageQuery = (filters: GalleryFilters) => ({
  q: filterValue(filters.q),
  model: filterValue(filters.model),
  from: filterValue(filters.from),
  to: filterValue(filters.to),
  kind: filterValue(filters.kind) as ImageKind | undefined,
});

/** `/gallery` and `/gallery/<id>`: the grid, and on top of it the details of image `<id>`. */
export function GalleryPage({ params, query }: PageProps) {
  const filters: GalleryFilters = {
    q: query.get('q') ?? '',
    model: query.get('model') ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    kind: query.get('kind') ?? '',
  };
  const filterKey = JSON.stringify(filters);
  const list = usePagedList(
    async (page) => {
      const { images, pagination } = await dataOf(api.GET('/api/images', { params: { query: { ...imageQuery(filters), ...page } } }));
      return { items: images, pagination };
    },
    [filterKey],
  );
  const models = useImageModels();
  const openId = params.id;
  useOldDetailsLink(query.get('image'));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | undefined>(undefined);
  // Everything done to a selection (add to a collection, delete) needs manage: other keys get no checkboxes.
  const canSelect = useHolds('manage');
  const canGenerate = useHolds('generate');
  useDeletes();

  const images = list.items.filter((image) => !isDeleted(image.id));
  // The server's count until the next load still includes what was just deleted here.
  const total = list.total === undefined ? undefined : list.total - (list.items.length - images.length);
  const filtered = filters.q !== '' || filters.model !== '' || filters.from !== '' || filters.to !== '' || filters.kind !== '';
  const setFilters = (patch: Partial<GalleryFilters>) => {
    const params = new URLSearchParams(location.search);
    for (const [name, value] of Object.entries(patch)) {
      if (value === '') params.delete(name);
      else params.set(name, value);
    }
    const search = params.toString();
    navigate(`/gallery${search === '' ? '' : `?${search}`}`, { replace: true });
  };
  const clearFilters = () => {
    navigate('/gallery', { replace: true });
    document.getElementById('gallery-search')?.focus();
  };
  // What is selected must be what is shown: new filters start a new selection.
  useEffect(() => setSelected(new Set()), [filterKey]);
  const remove = (ids: string[], label: string) => {
    scheduleDelete(ids, label);
    setSelected(new Set());
  };
  useFocusBack(openId);
  // Next on the last image loaded so far loads the next page, then moves on once it is there.
  const nextAfterLoad = useRef<string | undefined>(undefined);
  useEffect(() => {
    const from = nextAfterLoad.current;
    if (from === undefined || from !== openId) return;
    const after = images[images.findIndex((image) => image.id === from) + 1];
    if (after === undefined) return;
    nextAfterLoad.current = undefined;
    showDetails(after.id);
  }, [images.length]);
  const more =
    list.hasMore && openId !== undefined
      ? () => {
          nextAfterLoad.current = openId;
          list.loadMore();
        }
      : undefined;

  return (
    <>
      <PageHeading title="Gallery" />
      <GalleryFilterForm filters={filters} models={models} failure={list.failure} onChange={setFilters} />
      <p class="muted result-count" role="status">
        {total === undefined ? 'Loading images…' : filtered ? `${plural(total, 'image')} match${total === 1 ? 'es' : ''}` : plural(total, 'image')}
      </p>
      {total === 0 && filtered && (
        <p class="empty-result">
          Nothing matches these filters.{' '}
          <button type="button" class="button small" onClick={clearFilters}>
            Clear filters
          </button>
        </p>
      )}
      {list.failure !== undefined && list.failure.field === undefined && (
        <p class="form-error" role="alert">
          {list.failure.text}
        </p>
      )}
      <p class="notice" role="status">
        {notice}
      </p>
      {selected.size > 0 && (
        <BulkBar
          ids={[...selected]}
          onClear={() => setSelected(new Set())}
          onAdded={(message) => {
            setSelected(new Set());
            setNotice(message);
          }}
          onDelete={() => remove([...selected], plural(selected.size, 'image'))}
        />
      )}
      {total === 0 && !filtered && (
        <p>
          No images yet.
          {canGenerate && (
            <>
              {' '}
              <Link href="/generate">Generate one</Link>.
            </>
          )}
        </p>
      )}
      <ImageGrid
        images={images}
        label="Images"
        onOpen={(image) => openDetails(image.id)}
        selected={selected}
        onSelect={
          canSelect
            ? (image, on) => {
                setNotice(undefined);
                const next = new Set(selected);
                if (on) next.add(image.id);
                else next.delete(image.id);
                setSelected(next);
              }
            : undefined
        }
      />
      <LoadMore hasMore={list.hasMore} loading={list.loading} count={list.items.length} onLoad={list.loadMore} label="Load more images" />
      {openId !== undefined && (
        <ImageDialog
          id={openId}
          preview={images.find((image) => image.id === openId)}
          onClose={closeDetails}
          onOpen={showDetails}
          onDelete={(image) => remove([image.id], deleteLabel(image))}
          steps={stepsThrough(images, openId, showDetails, { total, more })}
        />
      )}
    </>
  );
}

/** `/gallery?image=<id>`, the details address before they had their own, still opens them (at the new address). */
function useOldDetailsLink(id: string | null): void {
  useEffect(() => {
    if (id === null || id === '') return;
    const params = new URLSearchParams(location.search);
    params.delete('image');
    const search = params.toString();
    navigate(detailsHref(id, search === '' ? '' : `?${search}`), { replace: true });
  }, [id]);
}

/**
 * Closing the dialog changes the address, and the app then focuses the page heading as after any change of
 * page, which scrolls to the top. Closing is no change of page: the gallery scrolls back to where it was and
 * puts the focus on the picture last shown, a frame later, once the heading has had it.
 */
function useFocusBack(openId: string | undefined): void {
  const last = useRef<{ id: string; y: number } | undefined>(undefined);
  useEffect(() => {
    if (openId !== undefined) {
      last.current = { id: openId, y: last.current?.y ?? window.scrollY };
      return;
    }
    const back = last.current;
    last.current = undefined;
    if (back === undefined) return;
    const frame = requestAnimationFrame(() => {
      window.scrollTo(0, back.y);
      const thumb = [...document.querySelectorAll<HTMLElement>('.image-grid button.thumb')].find((button) => button.dataset.imageId === back.id);
      if (thumb === undefined) return;
      const box = thumb.getBoundingClientRect();
      thumb.focus({ preventScroll: box.top >= 0 && box.bottom <= window.innerHeight });
    });
    return () => cancelAnimationFrame(frame);
  }, [openId]);
}
