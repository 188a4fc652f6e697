import type { CpuPool } from '../../cpu/cpu-pool.js';
import type { ImageProvider, ProviderCallOptions, ProviderImage, ProviderProgress, ProviderRequest } from '../../../ports/image-provider.js';
import { steadyProgress } from '../progress-reports.js';
import type { OnRenderStage, RenderStage } from './render-pixels.js';

/**
 * The share of a call the drawing takes; encoding the PNG takes the rest (about two thirds of the time, measured in
 * inline-image-work.ts; libvips at level 6 in the pool is no faster). Its stages are the steps reported.
 */
const DRAWING_SHARE = 1 / 3;

/**
 * Smaller pictures are drawn and encoded in a few tens of milliseconds, over before any progress would be shown; following
 * their stages would only cost a port and a dozen messages each (about half a millisecond on a 64x64 render of 3 ms).
 */
export const STAGES_FROM_PIXELS = 512 * 512;

/** A stage of the drawing as the call's progress: the drawing's stages share DRAWING_SHARE, then the encoding. */
export function stageProgress({ done, total, stage }: RenderStage): ProviderProgress {
  if (done >= total) return { fraction: DRAWING_SHARE, message: 'encoding the PNG' };
  return { fraction: (DRAWING_SHARE * done) / total, message: `drawing: ${stage} (${done + 1} of ${total})` };
}

/**
 * The offline provider behind `local/procedural`. It ignores `providerModel` because it serves exactly one model.
 * Drawing and encoding run on the CPU pool's threads, off the event loop. PNG encoding through libvips is
 * deterministic for identical pixels and options, so equal requests give equal bytes, whichever thread drew them.
 * Given an image it edits it without any AI: the drawing replaces the mask's transparent area, or, without a
 * mask, is blended over the whole image by `strength` (see edit.ts). It reports the stages of its drawing as progress,
 * from STAGES_FROM_PIXELS up.
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
      const onProgress = request.width * request.height >= STAGES_FROM_PIXELS ? options?.onProgress : undefined;
      const report = onProgress === undefined ? undefined : steadyProgress(onProgress);
      const onStage: OnRenderStage | undefined = report === undefined ? undefined : (stage) => report(stageProgress(stage));
      // A caller that gives up stops waiting at once; the pool ends the thread still drawing for it.
      const callOptions = { signal: options?.signal, ...(onStage === undefined ? {} : { onStage }) };
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
