import type { Locator } from 'playwright-core';

/**
 * The natural width of a picture once its bytes have arrived (0 if they fail to load). An <img> appears as soon as
 * the page renders it and its bytes come a moment later, so reading `naturalWidth` straight away races the load
 * (it failed that way on a loaded CI machine).
 */
export function loadedWidth(image: Locator): Promise<number> {
  return image.evaluate((img: HTMLImageElement) =>
    img.complete
      ? img.naturalWidth
      : new Promise<number>((resolve) => {
          img.addEventListener('load', () => resolve(img.naturalWidth), { once: true });
          img.addEventListener('error', () => resolve(0), { once: true });
        }),
  );
}
