import type { TargetedMouseEvent } from 'preact';
import { useState } from 'preact/hooks';
import { downloadFileName, saveImage, type DownloadImage } from '../lib/download.js';

/**
 * "Download": saves the image named after its prompt and stays in the app. A plain link underneath, so
 * "Save link as" and a middle click still work; a plain click goes through `saveImage`.
 */
export function DownloadLink({ image }: { image: DownloadImage }) {
  const [saving, setSaving] = useState(false);
  const onClick = async (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    try {
      await saveImage(image);
    } finally {
      setSaving(false);
    }
  };
  return (
    <a class="button" href={image.r2_url} download={downloadFileName(image)} aria-busy={saving} onClick={onClick}>
      Download
    </a>
  );
}
