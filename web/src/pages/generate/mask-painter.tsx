import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Image } from '../../api/types.js';
import { imageTitle } from '../../lib/images.js';

interface MaskPainterProps {
  image: Image;
  /** The strokes, at the image's natural size: the form turns them into the mask PNG when it generates. */
  canvas: RefObject<HTMLCanvasElement | null>;
  painted: boolean;
  onPaint: () => void;
  onClear: () => void;
}

const STROKE = '#e11d48';

/**
 * "Paint mask": the input image with a canvas over it; what is painted is the area the model may change.
 * Brush sizes are in the image's own pixels, so a stroke covers the same part of it at any screen width.
 */
export function MaskPainter({ image, canvas, painted, onPaint, onClear }: MaskPainterProps) {
  const [open, setOpen] = useState(painted);
  const longest = Math.max(image.width, image.height);
  const [brush, setBrush] = useState(() => Math.max(4, Math.round(longest / 16)));
  const last = useRef<{ x: number; y: number } | undefined>(undefined);

  const at = (event: PointerEvent): { x: number; y: number } | undefined => {
    const element = canvas.current;
    if (element === null) return undefined;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return undefined;
    return { x: ((event.clientX - box.left) * element.width) / box.width, y: ((event.clientY - box.top) * element.height) / box.height };
  };
  const stroke = (from: { x: number; y: number }, to: { x: number; y: number }) => {
    const context = canvas.current?.getContext('2d');
    if (context === undefined || context === null) return;
    // Opaque strokes (the canvas is shown half see-through): the mask takes painted pixels to alpha 0.
    context.strokeStyle = STROKE;
    context.lineWidth = brush;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
    context.stroke();
  };

  return (
    <div class="mask">
      <div class="actions">
        <button type="button" class="button" aria-expanded={open} aria-controls="gen-mask-panel" onClick={() => setOpen(!open)}>
          Paint mask
        </button>
        <p class="muted inline-status" role="status">
          {painted ? 'Mask painted: only the painted area changes.' : 'No mask: the model may change the whole image.'}
        </p>
      </div>
      <div id="gen-mask-panel" class="mask-panel" hidden={!open}>
        <p class="hint" id="gen-mask-hint">
          Paint over the part of the image to change, with a mouse, pen or finger.
        </p>
        <div class="mask-stage">
          <img src={image.r2_url} alt={imageTitle(image)} width={image.width} height={image.height} draggable={false} />
          <canvas
            ref={canvas}
            class="mask-canvas"
            width={image.width}
            height={image.height}
            role="img"
            aria-label="Mask: the painted area will change"
            aria-describedby="gen-mask-hint"
            onPointerDown={(event) => {
              const point = at(event);
              if (point === undefined || event.button !== 0) return;
              event.preventDefault();
              event.currentTarget.setPointerCapture(event.pointerId);
              last.current = point;
              stroke(point, point);
              onPaint();
            }}
            onPointerMove={(event) => {
              const from = last.current;
              const point = at(event);
              if (from === undefined || point === undefined) return;
              stroke(from, point);
              last.current = point;
            }}
            onPointerUp={() => (last.current = undefined)}
            onPointerCancel={() => (last.current = undefined)}
          />
        </div>
        <div class="mask-tools">
          <label for="gen-mask-brush">Brush size</label>
          <input
            id="gen-mask-brush"
            type="range"
            min={2}
            max={Math.max(8, Math.round(longest / 4))}
            step={1}
            value={brush}
            onInput={(event) => setBrush(Number(event.currentTarget.value))}
          />
          <output for="gen-mask-brush">{brush} px</output>
          <button
            type="button"
            class="button small"
            disabled={!painted}
            onClick={() => {
              const element = canvas.current;
              element?.getContext('2d')?.clearRect(0, 0, element.width, element.height);
              onClear();
            }}
          >
            Clear mask
          </button>
        </div>
      </div>
    </div>
  );
}
