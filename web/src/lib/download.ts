import type { Image } from '../api/types.js';

/** Longest name before the extension: enough to recognise a prompt, short enough for any file system. */
const MAX_STEM = 60;

/**
 * The name a downloaded image is saved as, before its extension: the prompt's words in lower case, joined
 * by hyphens (no slashes, quotes or other characters a file system refuses). An upload's "prompt" is its
 * file name, whose extension is dropped; an image without words is named by its id.
 */
export function downloadStem(image: Pick<Image, 'id' | 'prompt'> & { kind?: Image['kind'] }): string {
  const text = image.kind === 'upload' ? image.prompt.replace(/\.(png|jpe?g|webp|gif)$/i, '') : image.prompt;
  const words =
    text
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  let stem = '';
  for (const word of words) {
    const longer = stem === '' ? word : `${stem}-${word}`;
    if (longer.length > MAX_STEM) break;
    stem = longer;
  }
  // One very long word still names the file, cut short by code points: a cut by UTF-16 units could split a
  // surrogate pair (a CJK extension letter), which the download name and the URL would carry as U+FFFD.
  if (stem === '' && words[0] !== undefined) stem = Array.from(words[0]).slice(0, MAX_STEM).join('');
  return stem === '' ? image.id : stem;
}

/** The extension the stored file really has (PNG, JPEG or WebP), from its key. */
export const fileExtension = (r2Key: string): string => /\.(png|jpe?g|webp)$/i.exec(r2Key)?.[1]?.toLowerCase() ?? 'png';

export type DownloadImage = Pick<Image, 'id' | 'prompt' | 'r2_key' | 'r2_url'> & { kind?: Image['kind'] };

export const downloadFileName = (image: DownloadImage): string => `${downloadStem(image)}.${fileExtension(image.r2_key)}`;

/** The server's own download link: it answers `Content-Disposition: attachment` named `<stem>.<extension>`. */
export function attachmentUrl(image: DownloadImage): string {
  const url = new URL(image.r2_url, location.href);
  url.searchParams.set('download', downloadStem(image));
  return url.href;
}

function clickLink(href: string, download?: string): void {
  const link = document.createElement('a');
  link.href = href;
  if (download !== undefined) link.download = download;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Saves the image as a file named after its prompt, without leaving the app. A browser names a download
 * from a link's `download` attribute only for its own origin, so the bytes are fetched and saved from a
 * blob URL; when they cannot be fetched (an image bucket on another origin without CORS), the server's
 * attachment link does it instead.
 */
export async function saveImage(image: DownloadImage): Promise<void> {
  let blob: Blob;
  try {
    const response = await fetch(image.r2_url);
    if (!response.ok) throw new Error(`the image answered ${response.status}`);
    blob = await response.blob();
  } catch {
    clickLink(attachmentUrl(image));
    return;
  }
  const url = URL.createObjectURL(blob);
  clickLink(url, downloadFileName(image));
  // The download has started from the blob by now; a minute is ample before letting its memory go.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
