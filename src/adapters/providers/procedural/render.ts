import { renderPixels, type OnRenderStage, type RenderInput } from './render-pixels.js';

export type { OnRenderStage, RenderInput, RenderStage } from './render-pixels.js';

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3;
}

/**
 * Draws a landscape steered by the prompt (see renderPixels, which has no Node APIs), as a Buffer for sharp and
 * the Node callers; a view of the same memory, not a copy. Deterministic: the same input always yields the same bytes.
 */
export function renderProcedural(input: RenderInput, onStage?: OnRenderStage): RawImage {
  const image = renderPixels(input, onStage);
  return { ...image, data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length) };
}
