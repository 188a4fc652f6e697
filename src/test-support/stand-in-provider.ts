import { createProceduralProvider } from '../adapters/providers/procedural/procedural-provider.js';
import type { ImageProvider } from '../ports/image-provider.js';
import { testCpuPool } from './harness.js';

export interface StandIn {
  provider: ImageProvider;
  /** Calls made so far: each one a call a paid provider would bill. */
  calls(): number;
}

/**
 * A stand-in for a paid provider (Replicate by default, whose flux-schnell costs $0.003 a picture) that draws
 * offline and counts its calls: budgets and the ledger in whole pictures, without a provider's wire format.
 */
export function countingStandIn(id = 'replicate'): StandIn {
  const real = createProceduralProvider(testCpuPool());
  let calls = 0;
  return {
    provider: {
      id,
      generate: (request, options) => {
        calls += 1;
        return real.generate(request, options);
      },
    },
    calls: () => calls,
  };
}
