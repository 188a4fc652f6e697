import { api, dataOf } from '../api/client.js';
import type { Image } from '../api/types.js';

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

const TYPE_NAMES: Readonly<Record<string, string>> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

/** The types in words: "PNG, JPEG or WebP", or "PNG" where the server decodes PNG only. */
export function typesInWords(types: readonly string[]): string {
  const names = types.map((type) => TYPE_NAMES[type] ?? type);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''}`;
}

/**
 * Why this file cannot be uploaded, in words; undefined when it can (the server still has the last word). `types`
 * are what the server decodes (/app/config.json), so a wrong file is named before it is sent.
 */
export function uploadProblem(file: File, types: readonly string[]): string | undefined {
  if (!types.includes(file.type)) return `${file.name} is not a ${typesInWords(types)} image.`;
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} is larger than 50 MB.`;
  return undefined;
}

/**
 * Sends one file to the gallery as an uploaded image; answers its record. A `mask` is stored as one: listed under
 * Uploads, not among the images (the same bytes sent again are the image already stored).
 */
export function uploadImage(file: Blob, name: string, role?: NonNullable<Image['upload_role']>): Promise<Image> {
  return dataOf(
    api.POST('/api/uploads', {
      body: role === undefined ? { file } : { file, role },
      // Multipart, the file under its name; the browser writes the Content-Type, with the boundary it chose.
      bodySerializer: (fields) => {
        const form = new FormData();
        form.append('file', fields.file, name);
        if (fields.role !== undefined) form.append('role', fields.role);
        return form;
      },
    }),
  );
}

/** A name for an image where its prompt is the usual name: an upload may have none. (Batch images carry no kind.) */
export function imageTitle(image: Pick<Image, 'prompt'> & Partial<Pick<Image, 'kind'>>): string {
  if (image.prompt.trim() !== '') return image.prompt;
  return image.kind === 'upload' ? 'Uploaded image' : 'Image';
}

/** The file name to download as, with the extension the stored file really has (PNG, JPEG or WebP). */
export function downloadName(image: Pick<Image, 'id' | 'r2_key'>): string {
  const extension = /\.(png|jpe?g|webp)$/i.exec(image.r2_key)?.[1]?.toLowerCase() ?? 'png';
  return `${image.id}.${extension}`;
}

/**
 * Tiles loaded at once: about the first row on a wide screen (six or seven columns) and the first screen on a phone
 * (two columns); the rest load as they near the viewport.
 */
export const EAGER_TILES = 8;

/**
 * How wide a tile is drawn, for choosing from the srcset: the whole width on a phone too narrow for two columns, else
 * about 12rem (tiles are 9.5rem to about 11rem in the 1200 px page, up to 13rem between). At DPR 1 that picks the
 * 256w thumbnail; at DPR 2 Chromium takes the 768w one (256w is under 2x a 150 px tile). Not `auto`: Chromium reads
 * it as 100vw for the eager tiles, which then load the largest candidate.
 */
export const TILE_SIZES = '(max-width: 22rem) 100vw, 12rem';

/** Long sides of the server's WebP thumbnails (`thumbnails.small`, `.medium`): 256 and 768 px, never enlarged. */
const THUMBNAIL_SIDES = { small: 256, medium: 768 } as const;

export interface TileSources {
  src: string;
  /** Absent when there is nothing to choose from (no thumbnails). */
  srcset?: string;
}

/**
 * A tile's picture: the thumbnails and the original as a srcset, each described by its real width (a portrait's
 * 256 px thumbnail is narrower than 256), so the browser loads the smallest that is sharp enough; `src` is the
 * small thumbnail for browsers without srcset. An image without thumbnails (stored before them) shows its original.
 * A thumbnail as wide as a larger file (a small image keeps its size) stands in for it: each width appears once.
 */
export function tileSources(image: { r2_url: string; width?: number; height?: number; thumbnails?: Image['thumbnails'] }): TileSources {
  const { thumbnails } = image;
  if (thumbnails === undefined || thumbnails === null) return { src: image.r2_url };
  const { width, height } = image;
  const known = width !== undefined && height !== undefined && width > 0 && height > 0;
  const widthAt = (side: number): number => (known ? Math.max(1, Math.round(width * Math.min(1, side / Math.max(width, height)))) : side);
  const candidates: [string, number | undefined][] = [
    [thumbnails.small, widthAt(THUMBNAIL_SIDES.small)],
    [thumbnails.medium, widthAt(THUMBNAIL_SIDES.medium)],
    [image.r2_url, known ? width : undefined],
  ];
  const seen = new Set<number>();
  const entries: string[] = [];
  for (const [url, w] of candidates) {
    if (w === undefined || seen.has(w)) continue;
    seen.add(w);
    entries.push(`${url} ${w}w`);
  }
  return { src: thumbnails.small, srcset: entries.join(', ') };
}
