import type { CpuPool } from '../../cpu/cpu-pool.js';
import type { ImageProvider, ProviderCallOptions, ProviderImage, ProviderRequest } from '../../../ports/image-provider.js';

/**
 * The offline provider behind `local/procedural`. It ignores `providerModel` because it serves exactly one model.
 * Drawing and encoding run on the CPU pool's threads, off the event loop. PNG encoding through libvips is
 * deterministic for identical pixels and options, so equal requests give equal bytes, whichever thread drew them.
 */
export function createProceduralProvider(cpu: Pick<CpuPool, 'render'>): ImageProvider {
  return {
    id: 'local',
    async generate(request: ProviderRequest, options?: ProviderCallOptions): Promise<ProviderImage> {
      // A caller that gives up stops waiting at once; the pool ends the thread still drawing for it.
      const { png } = await cpu.render(
        {
          prompt: request.prompt,
          seed: request.seed,
          width: request.width,
          height: request.height,
          negativePrompt: request.negativePrompt,
          steps: request.steps,
          guidance: request.guidance,
        },
        { signal: options?.signal },
      );
      return { bytes: png, contentType: 'image/png' };
    },
  };
}
