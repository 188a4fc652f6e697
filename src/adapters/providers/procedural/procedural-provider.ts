import sharp from 'sharp';
import type { ImageProvider, ProviderCallOptions, ProviderImage, ProviderRequest } from '../../../ports/image-provider.js';
import { renderProcedural } from './render.js';

/**
 * The offline provider behind `local/procedural`. It ignores `providerModel` because it serves exactly one model.
 * PNG encoding through libvips is deterministic for identical pixels and options, so equal requests give equal bytes.
 */
export function createProceduralProvider(): ImageProvider {
  return {
    id: 'local',
    async generate(request: ProviderRequest, options?: ProviderCallOptions): Promise<ProviderImage> {
      options?.signal?.throwIfAborted();
      const image = renderProcedural({
        prompt: request.prompt,
        seed: request.seed,
        width: request.width,
        height: request.height,
        negativePrompt: request.negativePrompt,
        steps: request.steps,
        guidance: request.guidance,
      });
      // Rendering is synchronous, so a caller that gave up meanwhile is only noticed here, before encoding.
      options?.signal?.throwIfAborted();
      const bytes = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
        .png({ compressionLevel: 6 })
        .toBuffer();
      return { bytes, contentType: 'image/png' };
    },
  };
}
