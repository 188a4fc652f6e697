import { api } from '../api/client.js';
import type { Image } from '../api/types.js';

/** What POST /api/uploads takes; checked here too, so a wrong file is named before it is sent. */
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Why this file cannot be uploaded, in words; undefined when it can (the server still has the last word). */
export function uploadProblem(file: File): string | undefined {
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) return `${file.name} is not a PNG, JPEG or WebP image.`;
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} is larger than 50 MB.`;
  return undefined;
}

/** Sends one file to the gallery as an uploaded image; answers its record. */
export function uploadImage(file: Blob, name: string): Promise<Image> {
  const form = new FormData();
  form.append('file', file, name);
  return api.post<Image>('/api/uploads', form);
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
