import { useEffect, useState } from 'preact/hooks';
import { isDeleted, scheduleDelete, useDeletes } from '../../api/pending-deletes.js';
import type { Image } from '../../api/types.js';
import { ImageGrid } from '../../components/image-grid.js';
import { LoadMore } from '../../components/load-more.js';
import { PageHeading } from '../../components/page-heading.js';
import { useImageModels } from '../../hooks/use-image-models.js';
import { usePagedList } from '../../hooks/use-paged-list.js';
import { plural } from '../../lib/format.js';
import { imageTitle } from '../../lib/images.js';
import { Link, navigate } from '../../router.js';
import type { PageProps } from '../types.js';
import { BulkBar } from './bulk-bar.js';
import { GalleryFilterForm, type GalleryFilters } from './gallery-filters.js';
import { ImageDialog } from './image-dialog.js';

const quote = (image: Image) => {
  const title = imageTitle(image);
  return `“${title.length > 40 ? `${title.slice(0, 40)}…` : title}”`;
};

export function GalleryPage({ query }: PageProps) {
  const filters: GalleryFilters = { q: query.get('q') ?? '', model: query.get('model') ?? '', from: query.get('from') ?? '', to: query.get('to') ?? '', kind: query.get('kind') ?? '' };
  const list = usePagedList<Image>('/api/images', { ...filters }, (body) => body.images as Image[]);
  const models = useImageModels();
  const [open, setOpen] = useState<{ id: string; preview?: Image } | undefined>(undefined);
  // `/gallery?image=<id>` (a details link opened in a new tab) opens that image; the address then drops it,
  // so a reload after closing the dialog does not open it again.
  const linked = query.get('image');
  useEffect(() => {
    if (linked === null || linked === '') return;
    setOpen({ id: linked });
    const params = new URLSearchParams(location.search);
    params.delete('image');
    const search = params.toString();
    navigate(`/gallery${search === '' ? '' : `?${search}`}`, { replace: true });
  }, [linked]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | undefined>(undefined);
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
  // What is selected must be what is shown: new filters start a new selection.
  const filterKey = JSON.stringify(filters);
  useEffect(() => setSelected(new Set()), [filterKey]);
  const remove = (ids: string[], label: string) => {
    scheduleDelete(ids, label);
    setSelected(new Set());
  };

  return (
    <>
      <PageHeading title="Gallery" />
      <GalleryFilterForm filters={filters} models={models} failure={list.failure} onChange={setFilters} />
      <p class="muted result-count" role="status">
        {total === undefined ? 'Loading images…' : filtered ? `${plural(total, 'image')} match${total === 1 ? 'es' : ''}` : plural(total, 'image')}
      </p>
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
          No images yet. <Link href="/generate">Generate one</Link>.
        </p>
      )}
      <ImageGrid
        images={images}
        label="Images"
        onOpen={(image) => setOpen({ id: image.id, preview: image })}
        selected={selected}
        onSelect={(image, on) => {
          setNotice(undefined);
          const next = new Set(selected);
          if (on) next.add(image.id);
          else next.delete(image.id);
          setSelected(next);
        }}
      />
      <LoadMore hasMore={list.hasMore} loading={list.loading} count={list.items.length} onLoad={list.loadMore} label="Load more images" />
      {open !== undefined && (
        <ImageDialog id={open.id} preview={open.preview} onClose={() => setOpen(undefined)} onOpen={(id) => setOpen({ id })} onDelete={(image) => remove([image.id], quote(image))} />
      )}
    </>
  );
}
