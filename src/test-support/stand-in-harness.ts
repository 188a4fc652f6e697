import { createHarness, type Harness, type HarnessOptions } from './harness.js';
import { countingStandIn, type StandIn } from './stand-in-provider.js';

/**
 * A harness whose Replicate is a counting stand-in: the set-up of every test that proves a paid provider is called
 * only when it should be (never for a refused request, never twice). Replicate's flux-schnell ($0.003) and Kontext
 * models are then the paid models; `options` are the harness's own, their `providers` kept beside the stand-in.
 */
export async function harnessWithStandIn(options: HarnessOptions = {}): Promise<{ h: Harness; standIn: StandIn }> {
  const standIn = countingStandIn();
  const h = await createHarness({ ...options, providers: { ...options.providers, replicate: standIn.provider } });
  return { h, standIn };
}
