import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ComfyWorkflowInfo } from './comfyui-models.js';
import type { GenerationParameter } from '../../../domain/models/types.js';

/** The samples shipped with imagegate (`workflows/comfyui` at the package root, from src/ and dist/ alike). */
export const BUNDLED_WORKFLOWS = fileURLToPath(new URL('../../../../workflows/comfyui', import.meta.url));

/** An API-format ComfyUI graph ("Export (API)"): node id -> `{ class_type, inputs }`. */
export type ComfyGraph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

/** Where one value goes in the graph: an input of a node. */
export interface NodeInput {
  node: string;
  input: string;
}

export interface ComfyWorkflow extends ComfyWorkflowInfo {
  graph: ComfyGraph;
  /**
   * The nodes that take each value; `output` is the node whose images are the result (else the first with images).
   * `images` are the LoadImage inputs that take the uploaded input images, in the caller's order; `mask` the
   * LoadImageMask (channel alpha) input that takes the uploaded mask; `strength` the KSampler's `denoise`.
   */
  nodes: Partial<Record<'prompt' | GenerationParameter | 'mask' | 'strength', NodeInput>> & {
    prompt: NodeInput;
    seed: NodeInput;
    images?: readonly NodeInput[];
    output?: string;
  };
}

const GraphSchema = z.record(z.string(), z.object({ class_type: z.string().min(1), inputs: z.record(z.string(), z.unknown()) }).loose());
const Target = z.object({ node: z.string().min(1), input: z.string().min(1) }).strict();
const size = z.number().int().min(16).max(16384);
const MappingSchema = z
  .object({
    name: z.string().trim().min(1),
    description: z.string().trim().min(1),
    prompt: Target,
    // ComfyUI serves an identical graph from its cache, so a workflow must take a seed or every image would repeat.
    seed: Target,
    negative_prompt: Target.optional(),
    width: Target.optional(),
    height: Target.optional(),
    steps: Target.optional(),
    guidance: Target.optional(),
    // The LoadImage node(s) that take the input images: one target, or a list (the first is the image edited).
    image: z.union([Target, z.array(Target).min(1)]).optional(),
    mask: Target.optional(),
    strength: Target.optional(),
    output: z.string().min(1).optional(),
    defaults: z.object({ width: size, height: size, steps: z.number().int().min(1).optional() }).strict(),
    limits: z
      .object({
        min_size: size.default(64),
        max_size: size.default(2048),
        max_steps: z.number().int().min(1).default(150),
        multiple_of: z.number().int().min(1).default(8),
      })
      .strict()
      .default({ min_size: 64, max_size: 2048, max_steps: 150, multiple_of: 8 }),
    typical_seconds: z.number().positive().default(10),
  })
  .strict();

const OPTIONAL: readonly GenerationParameter[] = ['width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'];

/**
 * Every `<model>.json` in `folder` with its `<model>.mapping.json`, checked: a bad file stops start-up with a
 * message naming COMFYUI_WORKFLOWS, the file and what is wrong.
 */
export function loadComfyWorkflows(folder: string): ComfyWorkflow[] {
  const fail = (file: string, problem: string): never => invalid(folder, file, problem);
  let names: string[];
  try {
    names = fs
      .readdirSync(folder)
      .filter((name) => name.endsWith('.json') && !name.endsWith('.mapping.json'))
      .sort();
  } catch {
    throw new Error(`COMFYUI_WORKFLOWS: ${folder} is not a readable folder of workflow files`);
  }
  return names.map((file) => {
    const id = file.slice(0, -'.json'.length);
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(id)) fail(file, 'the file name (the model id) may hold only a-z, 0-9, ".", "_" and "-"');
    const graph = GraphSchema.safeParse(readJson(folder, file, fail));
    if (!graph.success) return invalid(folder, file, 'not an API-format workflow (export it with "Export (API)": node id -> { class_type, inputs })');
    const mappingFile = `${id}.mapping.json`;
    const mapping = MappingSchema.safeParse(readJson(folder, mappingFile, fail));
    if (!mapping.success)
      return invalid(folder, mappingFile, mapping.error.issues.map((issue) => `${issue.path.join('.') || 'mapping'}: ${issue.message}`).join('; '));
    const m = mapping.data;
    const nodes: ComfyWorkflow['nodes'] = { prompt: m.prompt, seed: m.seed };
    for (const name of OPTIONAL) {
      const target = m[name];
      if (target !== undefined) nodes[name] = target;
    }
    const images = m.image === undefined ? [] : Array.isArray(m.image) ? m.image : [m.image];
    if (images.length > 0) nodes.images = images;
    if (m.mask !== undefined) nodes.mask = m.mask;
    if (m.strength !== undefined) nodes.strength = m.strength;
    const targets: [string, NodeInput][] = [['prompt', m.prompt]];
    for (const name of [...OPTIONAL, 'mask', 'strength'] as const) {
      const target = nodes[name];
      if (target !== undefined) targets.push([name, target]);
    }
    for (const [index, target] of images.entries()) targets.push([images.length === 1 ? 'image' : `image[${index}]`, target]);
    for (const [name, target] of targets) {
      const node = graph.data[target.node];
      if (node === undefined) fail(mappingFile, `${name} names node ${target.node}, which the workflow does not have`);
      else if (!(target.input in node.inputs))
        fail(mappingFile, `${name} names input ${target.input} of node ${target.node} (${node.class_type}), which it does not have`);
    }
    if ((m.width === undefined) !== (m.height === undefined)) fail(mappingFile, 'map width and height together, or neither');
    if ((m.mask !== undefined || m.strength !== undefined) && images.length === 0) fail(mappingFile, 'mask and strength work on an input image: map image too');
    // imagegate's masks are OpenAI's (transparent = change); LoadImageMask reads that only from the alpha channel,
    // where its mask is 1 - alpha (nodes.py), the area KSampler repaints.
    const maskNode = m.mask === undefined ? undefined : graph.data[m.mask.node];
    if (maskNode?.class_type === 'LoadImageMask' && maskNode.inputs.channel !== 'alpha')
      fail(mappingFile, `mask names LoadImageMask node ${m.mask?.node ?? ''}, whose channel must be "alpha" (transparent = change)`);
    if (m.steps !== undefined && m.defaults.steps === undefined) fail(mappingFile, 'defaults.steps is needed when steps is mapped');
    if (m.output !== undefined) {
      if (graph.data[m.output] === undefined) fail(mappingFile, `output names node ${m.output}, which the workflow does not have`);
      nodes.output = m.output;
    }
    return {
      id,
      name: m.name,
      description: m.description,
      parameters: OPTIONAL.filter((name) => nodes[name] !== undefined),
      inputs: { max_images: images.length, mask: m.mask !== undefined, strength: m.strength !== undefined },
      defaults: m.defaults,
      limits: m.limits,
      typical_seconds: m.typical_seconds,
      graph: graph.data,
      nodes,
    };
  });
}

function invalid(folder: string, file: string, problem: string): never {
  throw new Error(`COMFYUI_WORKFLOWS: ${path.join(folder, file)}: ${problem}`);
}

function readJson(folder: string, file: string, fail: (file: string, problem: string) => never): unknown {
  let text: string;
  try {
    text = fs.readFileSync(path.join(folder, file), 'utf8');
  } catch {
    return fail(file, 'cannot be read (every workflow needs its .mapping.json beside it)');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return fail(file, `not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
