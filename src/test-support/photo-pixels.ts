/**
 * Raw RGBA pixels with structure in every colour channel, so that a pixel an edit was meant to keep cannot equal
 * the drawing by chance; `alpha` gives each pixel's alpha. The one pattern the edit tests of the procedural model
 * and the sample images of the API tests both draw their "photo" from.
 */
export function photoPixels(width: number, height: number, alpha: (x: number, y: number) => number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 5 + y) & 0xff;
      data[i + 1] = (y * 7 + 30) & 0xff;
      data[i + 2] = (x * y) & 0xff;
      data[i + 3] = alpha(x, y);
    }
  }
  return data;
}

/**
 * Raw RGBA pixels of an edit mask in imagegate's sense: the left half fully transparent (change), the column at
 * the middle half transparent, the rest opaque (keep). Encode them as the test needs (PNG by sharp, usually).
 */
export function halfMaskPixels(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4, 255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (x < width / 2) data[i + 3] = 0;
      else if (x === width / 2) data[i + 3] = 128;
    }
  }
  return data;
}
