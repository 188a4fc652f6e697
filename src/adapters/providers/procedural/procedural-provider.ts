import type { CpuPool } from '../../cpu/cpu-pool.js';
import type { ImageProvider, ProviderCallOptions, ProviderImage, ProviderRequest } from '../../../ports/image-provider.js';

/**
 * The offline provider behind `local/procedural`. It ignores `providerModel` because it serves exactly one model.
 * Drawing and encoding run on the CPU pool's threads, off the event loop. PNG encoding through libvips is
 * deterministic for identical pixels and options, so equal requests give equal bytes, whichever thread drew them.
 * Given an image it edits it without any AI: the drawing replaces the mask's transparent area, or, without a
 * mask, is blended over the whole image by `strength` (see edit.ts).
 */
export function createProceduralProvider(cpu: Pick<CpuPool, 'render' | 'edit'>): ImageProvider {
  return {
    id: 'local',
    async generate(request: ProviderRequest, options?: ProviderCallOptions): Promise<ProviderImage> {
      const scene = {
        prompt: request.prompt,
        seed: request.seed,
        width: request.width,
        height: request.height,
        negativePrompt: request.negativePrompt,
        steps: request.steps,
        guidance: request.guidance,
      };
      // A caller that gives up stops waiting at once; the pool ends the thread still drawing for it.
      const callOptions = { signal: options?.signal };
      // Only images[0] is used: the catalogue entry takes one image (`inputs.max_images: 1`), so there are no references.
      const image = request.images?.[0];
      const { png } =
        image === undefined
          ? await cpu.render(scene, callOptions)
          : await cpu.edit({ ...scene, image: image.bytes, mask: request.mask?.bytes, strength: request.strength }, callOptions);
      return { bytes: png, contentType: 'image/png' };
    },
  };
}
