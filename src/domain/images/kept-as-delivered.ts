import type { EncodeOptions } from '../../ports/image-codec.js';
import { readImageHeader } from '../inputs/image-header.js';

/** Sides past this are not what a provider returns: such a header is left to the codec, which decodes and judges it. */
const MAX_DELIVERED_SIDE = 16_384;

/**
 * The size of a provider's answer that is stored exactly as delivered, read from its header; undefined when it must
 * go through the codec. A PNG asked for as PNG with no transparency to flatten is what the codec would keep byte for
 * byte anyway (it never decodes those pixels): reading the header here spares the answer a trip to the CPU pool, the
 * ~40 ms of decoding that thumbnails cost is done later by their own job, and a PNG whose pixels are broken is
 * found then, shown from its original as before. PNG has no quality to apply, so `compression` changes nothing.
 */
export function keptAsDelivered(bytes: Uint8Array, wanted: Pick<EncodeOptions, 'format' | 'opaque'>): { width: number; height: number } | undefined {
  if (wanted.format !== 'png') return undefined;
  const header = readImageHeader(bytes);
  if (header?.contentType !== 'image/png') return undefined;
  if (wanted.opaque === true && header.hasAlpha) return undefined;
  const { width, height } = header;
  const plausible = (side: number) => Number.isInteger(side) && side > 0 && side <= MAX_DELIVERED_SIDE;
  return plausible(width) && plausible(height) ? { width, height } : undefined;
}
