import type { InputImage } from '../../../ports/image-provider.js';

/**
 * Turns imagegate's mask (OpenAI's convention: a fully transparent pixel marks the area to change) into the one
 * Stable Diffusion inpainting reads (runwayml/stable-diffusion-inpainting: white is repainted, black is kept).
 * Needs the mask's pixels, so decoding happens elsewhere, off the event loop: the composition root hands the adapter
 * the CPU pool's `inpaintMask` (grey = 255 - alpha, the same conversion Stability's inpaint gets).
 */
export type MaskConverter = (mask: InputImage, signal?: AbortSignal) => Promise<Uint8Array>;
