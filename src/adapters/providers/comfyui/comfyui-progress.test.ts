import { describe, expect, it } from 'vitest';
import type { ProviderProgress } from '../../../ports/image-provider.js';
import { comfyMessage, promptProgress } from './comfyui-progress.js';
import type { ComfyGraph } from './workflows.js';

/** A base pass and a refiner pass, each a KSampler, then a tiled decode that reports steps of its own. */
const TWO_PASSES: ComfyGraph = {
  '4': { class_type: 'CheckpointLoaderSimple', inputs: {} },
  '3': { class_type: 'KSampler', inputs: { steps: 4 } },
  '11': { class_type: 'KSamplerAdvanced', inputs: { steps: 2 } },
  '20': { class_type: 'KSamplerSelect', inputs: {} },
  '8': { class_type: 'VAEDecodeTiled', inputs: {} },
};

function follow(graph: ComfyGraph): { seen: ProviderProgress[]; send: (type: string, data: Record<string, unknown>) => void } {
  const seen: ProviderProgress[] = [];
  const listener = promptProgress(graph, (progress) => seen.push(progress));
  return { seen, send: (type, data) => listener({ type, data }) };
}

const steps = (node: string, max: number) => Array.from({ length: max }, (_, index) => ({ value: index + 1, max, prompt_id: 'p', node }));

describe("ComfyUI's progress messages", () => {
  it('gives each sampler of the graph an equal share of the bar, in the order they run', () => {
    const { seen, send } = follow(TWO_PASSES);
    for (const data of steps('3', 4)) send('progress', data);
    for (const data of steps('11', 2)) send('progress', data);
    expect(seen.map(({ fraction }) => fraction)).toEqual([1 / 8, 2 / 8, 3 / 8, 4 / 8, 3 / 4, 1]);
    expect(seen.map(({ message }) => message)).toEqual([
      'KSampler step 1/4',
      'KSampler step 2/4',
      'KSampler step 3/4',
      'KSampler step 4/4',
      'KSamplerAdvanced step 1/2',
      'KSamplerAdvanced step 2/2',
    ]);
  });

  it("leaves out samplers served from the cache, and tells other nodes' steps in words only", () => {
    const { seen, send } = follow(TWO_PASSES);
    send('execution_start', { prompt_id: 'p', timestamp: 0 });
    send('execution_cached', { nodes: ['4', '3'], prompt_id: 'p', timestamp: 0 });
    send('executing', { node: '11', display_node: '11', prompt_id: 'p' });
    for (const data of steps('11', 2)) send('progress', data);
    send('executing', { node: '8', display_node: '8', prompt_id: 'p' });
    send('progress', { value: 1, max: 3, prompt_id: 'p', node: '8' });
    expect(seen).toEqual([
      { fraction: 0, message: 'started' },
      { message: 'running KSamplerAdvanced' },
      { fraction: 0.5, message: 'KSamplerAdvanced step 1/2' },
      { fraction: 1, message: 'KSamplerAdvanced step 2/2' },
      { message: 'running VAEDecodeTiled' },
      { message: 'VAEDecodeTiled step 1/3' },
    ]);
  });

  it("takes any node's steps as the whole bar in a graph with no node it knows as a sampler", () => {
    const { seen, send } = follow({ '1': { class_type: 'MyCustomDiffusion', inputs: {} } });
    send('progress', { value: 3, max: 10, prompt_id: 'p', node: '1' });
    expect(seen).toEqual([{ fraction: 0.3, message: 'MyCustomDiffusion step 3/10' }]);
  });

  it('ignores progress without a usable max, and text that is not a message', () => {
    const { seen, send } = follow(TWO_PASSES);
    send('progress', { value: 1, max: 0, prompt_id: 'p', node: '3' });
    send('progress', { value: 'x', max: 4, prompt_id: 'p', node: '3' });
    expect(seen).toEqual([]);
    expect(comfyMessage('not json')).toBeUndefined();
    expect(comfyMessage('{"type":"status"}')).toBeUndefined();
    expect(comfyMessage('{"type":"progress","data":{"value":1}}')).toEqual({ type: 'progress', data: { value: 1 } });
  });
});
