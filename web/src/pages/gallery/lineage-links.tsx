import type { TargetedMouseEvent } from 'preact';
import { api, dataOf } from '../../api/client.js';
import type { Image } from '../../api/types.js';
import { useLoad } from '../../hooks/use-load.js';
import { imageTitle } from '../../lib/images.js';
import { detailsHref } from './details-address.js';

/**
 * Images related to the one shown ("Made from", "Made into") as links to their details, each with a small
 * picture once loaded. A plain click opens them in the same dialog; one that is gone says so.
 */
export function LineageLinks({ ids, label, onOpen }: { ids: readonly string[]; label: string; onOpen: (id: string) => void }) {
  const { loaded } = useLoad(
    (signal) =>
      Promise.all(
        ids.map((id) =>
          dataOf(api.GET('/api/images/{id}', { params: { path: { id } }, signal })).then(
            (image): Image | null => image,
            () => null,
          ),
        ),
      ),
    [ids.join(',')],
  );
  const images = loaded.state === 'ready' ? loaded.value : undefined;
  const open = (id: string) => (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen(id);
  };
  return (
    <ul class="lineage" aria-label={label}>
      {ids.map((id, index) => {
        const image = images?.[index];
        if (image === null) {
          return (
            <li key={id}>
              <span class="break">{id}</span> <span class="muted">(deleted)</span>
            </li>
          );
        }
        return (
          <li key={id}>
            <a href={detailsHref(id)} onClick={open(id)}>
              {image !== undefined && <img src={image.thumbnails?.small ?? image.r2_url} alt="" width={48} height={48} loading="lazy" />}
              <span class="lineage-title">{image === undefined ? id : imageTitle(image)}</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
