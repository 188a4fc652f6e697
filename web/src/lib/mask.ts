/**
 * The mask the API takes, from the strokes painted on `strokes` (a canvas at the input image's natural size):
 * a PNG that is fully transparent (alpha 0) where painted, the area to change, and opaque everywhere else.
 */
export function maskPng(strokes: HTMLCanvasElement): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = strokes.width;
  canvas.height = strokes.height;
  const context = canvas.getContext('2d');
  if (context === null) return Promise.reject(new Error('This browser cannot draw the mask (no 2D canvas).'));
  context.fillStyle = '#000';
  context.fillRect(0, 0, canvas.width, canvas.height);
  // Painted pixels are opaque on the strokes canvas, so "destination-out" takes their alpha to exactly 0.
  context.globalCompositeOperation = 'destination-out';
  context.drawImage(strokes, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob === null ? reject(new Error('Could not encode the mask as PNG.')) : resolve(blob)), 'image/png'),
  );
}
