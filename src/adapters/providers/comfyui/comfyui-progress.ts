import { isRecord, stringAt } from '../http-support.js';
import type { ReportProgress } from '../progress-reports.js';
import type { ComfyGraph } from './workflows.js';

/** A text message of ComfyUI's websocket: `{ type, data }`. */
export interface ComfyMessage {
  type: string;
  data: Record<string, unknown>;
}

/**
 * The nodes that sample, step by step, and take nearly all of a run's time: KSampler, KSamplerAdvanced, SamplerCustom,
 * SamplerCustomAdvanced (nodes.py, comfy_extras/nodes_custom_sampler.py) and custom nodes named after them; not
 * KSamplerSelect, which only picks a sampling method.
 */
const isSampler = (classType: string): boolean =>
  (classType.includes('KSampler') && !classType.includes('KSamplerSelect')) || classType.startsWith('SamplerCustom');

/**
 * How far a prompt got, from the messages ComfyUI sends its client (Comfy-Org/ComfyUI main.py hijack_progress:
 * `progress` `{ value, max, prompt_id, node }` for each step of the node running; execution.py: `execution_cached`
 * `{ nodes }` for nodes it skips, `executing` `{ node }` as each starts). The sampler nodes of the graph share the
 * bar, one equal part each in the order they run, less those served from the cache; other nodes' progress (a tiled
 * VAE decode, an upscaler) is told in words only. A graph without a node recognisably a sampler takes any node's
 * steps as the whole bar.
 */
export function promptProgress(graph: ComfyGraph, report: ReportProgress): (message: ComfyMessage) => void {
  const samplers = new Set(Object.keys(graph).filter((id) => isSampler(graph[id]?.class_type ?? '')));
  const order: string[] = [];
  const classOf = (node: string): string => graph[node]?.class_type ?? `node ${node}`;

  return ({ type, data }) => {
    if (type === 'execution_start') report({ fraction: 0, message: 'started' });
    if (type === 'execution_cached' && Array.isArray(data.nodes)) {
      for (const node of data.nodes) if (typeof node === 'string') samplers.delete(node);
    }
    const node = stringAt(data.node);
    if (type === 'executing' && node !== undefined) report({ message: `running ${classOf(node)}` });
    if (type !== 'progress' || node === undefined) return;
    const value = Number(data.value);
    const max = Number(data.max);
    if (!(max > 0) || !(value >= 0)) return;
    const steps = `${classOf(node)} step ${Math.min(value, max)}/${max}`;
    if (samplers.size === 0) return report({ fraction: value / max, message: steps });
    if (!samplers.has(node)) return report({ message: steps });
    if (!order.includes(node)) order.push(node);
    const part = order.indexOf(node);
    report({ fraction: (part + Math.min(1, value / max)) / Math.max(samplers.size, order.length), message: steps });
  };
}

/** The `{ type, data }` of a websocket text message, if it is one. */
export function comfyMessage(text: string): ComfyMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(message) || !isRecord(message.data)) return undefined;
  const type = stringAt(message.type);
  return type === undefined ? undefined : { type, data: message.data };
}
