import type { ComponentChildren } from 'preact';
import type { Image, ImageKind } from '../api/types.js';
import { EAGER_TILES, TILE_SIZES, imageTitle, tileSources } from '../lib/images.js';

export interface GridImage {
  id: string;
  prompt: string;
  r2_url: string;
  width?: number;
  height?: number;
  kind?: ImageKind;
  /** The server's WebP thumbnails; absent or null: the tile shows the original. */
  thumbnails?: Image['thumbnails'];
}

interface ImageGridProps<T extends GridImage> {
  images: readonly T[];
  label: string;
  /** Opens the image's details; its button is named by the picture's alt text, the prompt. */
  onOpen?: (image: T) => void;
  selected?: ReadonlySet<string>;
  onSelect?: (image: T, selected: boolean) => void;
  /** Extra controls under a card (e.g. "Remove from collection"). */
  actions?: (image: T) => ComponentChildren;
}

/** Pictures in a responsive grid, each with its prompt as `alt` (an upload without one: "Uploaded image"), in reading order. */
export function ImageGrid<T extends GridImage>({ images, label, onOpen, selected, onSelect, actions }: ImageGridProps<T>) {
  return (
    <ul class="image-grid" aria-label={label}>
      {images.map((image, index) => {
        const title = imageTitle(image);
        const { src, srcset } = tileSources(image);
        const picture = (
          <img
            src={src}
            srcset={srcset}
            sizes={srcset === undefined ? undefined : TILE_SIZES}
            alt={title}
            loading={index < EAGER_TILES ? 'eager' : 'lazy'}
            width={image.width}
            height={image.height}
          />
        );
        return (
          <li key={image.id} class={selected?.has(image.id) === true ? 'card selected' : 'card'}>
            {onOpen === undefined ? (
              <a class="thumb" href={image.r2_url} data-image-id={image.id}>
                {picture}
              </a>
            ) : (
              <button type="button" class="thumb" data-image-id={image.id} onClick={() => onOpen(image)}>
                {picture}
              </button>
            )}
            <div class="card-body">
              {onSelect !== undefined && (
                <label class="card-select">
                  <input type="checkbox" checked={selected?.has(image.id) === true} onChange={(event) => onSelect(image, event.currentTarget.checked)} />
                  <span class="visually-hidden">Select {title}</span>
                </label>
              )}
              <p class="card-caption" title={title}>
                {title}
              </p>
            </div>
            {actions !== undefined && <div class="card-actions">{actions(image)}</div>}
          </li>
        );
      })}
    </ul>
  );
}
