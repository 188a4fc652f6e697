import type { ImageProvider, ProviderImage } from '../../../../src/ports/image-provider.js';
import { decodeBridge, encodeBridge, errorFromBridge, type BridgedError } from '../../../../src/test-support/provider-bridge-codec.js';

/** A provider whose calls go to the test's own provider object, served by the test process (provider-bridge.ts). */
export function bridgedProvider(id: string, bridgeUrl: string): ImageProvider {
  return {
    id,
    async generate(request, options) {
      const answer = await fetch(`${bridgeUrl}/${encodeURIComponent(id)}/generate`, { method: 'POST', body: encodeBridge(request), signal: options?.signal });
      const result = decodeBridge<{ image?: ProviderImage; error?: BridgedError }>(await answer.text());
      if (result.error !== undefined) throw errorFromBridge(result.error);
      if (result.image === undefined) throw new Error(`the provider bridge answered ${answer.status} without an image`);
      return result.image;
    },
  };
}
