import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLED_WORKFLOWS, loadComfyWorkflows } from '../../../src/adapters/providers/comfyui/workflows.js';
import { ConfigError } from '../../../src/config/config.js';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { buildNodeProviderSet } from '../../../src/runtimes/node/providers.js';

/* The workflow folder (COMFYUI_WORKFLOWS): API-format graphs with a mapping beside each, checked at start-up. */

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

const sdxl = () => JSON.parse(fs.readFileSync(path.join(BUNDLED_WORKFLOWS, 'sdxl-base.json'), 'utf8')) as Record<string, unknown>;
const sdxlMapping = () => JSON.parse(fs.readFileSync(path.join(BUNDLED_WORKFLOWS, 'sdxl-base.mapping.json'), 'utf8')) as Record<string, unknown>;

/** A folder holding one workflow `name` with this graph and mapping (`undefined` leaves the file out). */
function folderWith(name: string, graph: unknown, mapping: unknown): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-workflows-'));
  folders.push(folder);
  fs.writeFileSync(path.join(folder, `${name}.json`), JSON.stringify(graph));
  if (mapping !== undefined) fs.writeFileSync(path.join(folder, `${name}.mapping.json`), JSON.stringify(mapping));
  return folder;
}

describe('the bundled ComfyUI workflows', () => {
  it('are SDXL base, FLUX.1 dev, SDXL image-to-image and SDXL inpainting, with every value they take mapped', () => {
    const workflows = loadComfyWorkflows(BUNDLED_WORKFLOWS);
    expect(workflows.map((w) => [w.id, w.parameters, w.inputs])).toEqual([
      ['flux-dev', ['width', 'height', 'seed', 'steps', 'guidance'], { max_images: 0, mask: false, strength: false }],
      ['sdxl-base', ['width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'], { max_images: 0, mask: false, strength: false }],
      ['sdxl-img2img', ['seed', 'negative_prompt', 'steps', 'guidance'], { max_images: 1, mask: false, strength: true }],
      ['sdxl-inpaint', ['seed', 'negative_prompt', 'steps', 'guidance'], { max_images: 1, mask: true, strength: true }],
    ]);
  });

  it('load their input images with LoadImage, the mask from its alpha with LoadImageMask, and take strength as denoise', () => {
    const inpaint = loadComfyWorkflows(BUNDLED_WORKFLOWS).find((w) => w.id === 'sdxl-inpaint');
    const classOf = (target: { node: string } | undefined) => (target === undefined ? undefined : inpaint?.graph[target.node]?.class_type);
    expect([classOf(inpaint?.nodes.images?.[0]), classOf(inpaint?.nodes.mask), classOf(inpaint?.nodes.strength)]).toEqual([
      'LoadImage',
      'LoadImageMask',
      'KSampler',
    ]);
    expect(inpaint?.nodes.strength?.input).toBe('denoise');
    expect(inpaint?.graph[inpaint.nodes.mask?.node ?? '']?.inputs.channel).toBe('alpha');
  });

  it('are listed as ComfyUI models, free, with the inputs their mapping names, unavailable until COMFYUI_URL is set', () => {
    const off = buildNodeProviderSet(loadConfig({}));
    const comfy = off.models.filter((m) => m.provider === 'comfyui');
    expect(comfy.map((m) => [m.id, m.pricing.kind, m.default_steps, m.inputs])).toEqual([
      ['comfyui/flux-dev', 'free', 20, undefined],
      ['comfyui/sdxl-base', 'free', 25, undefined],
      ['comfyui/sdxl-img2img', 'free', 25, { max_images: 1, mask: false, strength: true }],
      ['comfyui/sdxl-inpaint', 'free', 25, { max_images: 1, mask: true, strength: true }],
    ]);
    expect(off.statusOf('comfyui')).toEqual({ available: false, name: 'ComfyUI', reason: 'set COMFYUI_URL to enable provider comfyui' });
    expect(buildNodeProviderSet(loadConfig({ COMFYUI_URL: 'http://127.0.0.1:8188' })).statusOf('comfyui')).toEqual({ available: true, name: 'ComfyUI' });
  });
});

describe('a COMFYUI_WORKFLOWS folder', () => {
  it('gives one model per workflow file, named by the file', () => {
    const folder = folderWith('my-sdxl', sdxl(), { ...sdxlMapping(), name: 'My SDXL' });
    const set = buildNodeProviderSet(loadConfig({ COMFYUI_URL: 'http://127.0.0.1:8188', COMFYUI_WORKFLOWS: folder }));
    expect(set.models.filter((m) => m.provider === 'comfyui').map((m) => [m.id, m.name])).toEqual([['comfyui/my-sdxl', 'My SDXL']]);
  });

  it('makes a workflow whose size is not mapped a fixed-size model', () => {
    const { width: _width, height: _height, ...unsized } = sdxlMapping();
    const [workflow] = loadComfyWorkflows(folderWith('fixed', sdxl(), unsized));
    expect(workflow?.parameters).not.toContain('width');
  });

  it.each([
    ['a workflow without its mapping', undefined, 'cannot be read (every workflow needs its .mapping.json beside it)'],
    ['a mapping without a seed', { ...sdxlMapping(), seed: undefined }, 'seed: '],
    [
      'a mapping naming a node the workflow lacks',
      { ...sdxlMapping(), prompt: { node: '99', input: 'text' } },
      'prompt names node 99, which the workflow does not have',
    ],
    [
      'a mapping naming an input the node lacks',
      { ...sdxlMapping(), steps: { node: '3', input: 'iterations' } },
      'steps names input iterations of node 3 (KSampler), which it does not have',
    ],
    ['a mapping with width but no height', { ...sdxlMapping(), height: undefined }, 'map width and height together, or neither'],
    ['a mapping with an unknown field', { ...sdxlMapping(), sampler: 'euler' }, 'sampler'],
    [
      'a mapping naming an image node the workflow lacks',
      { ...sdxlMapping(), image: { node: '10', input: 'image' } },
      'image names node 10, which the workflow does not have',
    ],
    [
      'a mapping with a strength but no image',
      { ...sdxlMapping(), strength: { node: '3', input: 'denoise' } },
      'mask and strength work on an input image: map image too',
    ],
  ])('stops start-up on %s, naming COMFYUI_WORKFLOWS and the file', (_case, mapping, message) => {
    const folder = folderWith('broken', sdxl(), mapping === undefined ? undefined : JSON.parse(JSON.stringify(mapping)));
    const start = () => buildNodeProviderSet(loadConfig({ COMFYUI_WORKFLOWS: folder }));
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(`COMFYUI_WORKFLOWS: ${folder}`);
    expect(start).toThrow(message);
  });

  it('takes several image loaders as a list, the first the image edited and the rest references', () => {
    const graph = {
      ...sdxl(),
      '10': { class_type: 'LoadImage', inputs: { image: 'example.png' } },
      '11': { class_type: 'LoadImage', inputs: { image: 'example.png' } },
    };
    const [workflow] = loadComfyWorkflows(
      folderWith('refs', graph, {
        ...sdxlMapping(),
        image: [
          { node: '10', input: 'image' },
          { node: '11', input: 'image' },
        ],
      }),
    );
    expect(workflow?.inputs).toEqual({ max_images: 2, mask: false, strength: false });
    expect(workflow?.nodes.images?.map((target) => target.node)).toEqual(['10', '11']);
  });

  it('stops start-up on a LoadImageMask mask that reads another channel than alpha, which would invert the mask', () => {
    const inpaint = JSON.parse(fs.readFileSync(path.join(BUNDLED_WORKFLOWS, 'sdxl-inpaint.json'), 'utf8')) as Record<
      string,
      { inputs: Record<string, unknown> }
    >;
    const mapping = JSON.parse(fs.readFileSync(path.join(BUNDLED_WORKFLOWS, 'sdxl-inpaint.mapping.json'), 'utf8')) as unknown;
    const red = { ...inpaint, '12': { class_type: 'LoadImageMask', inputs: { image: 'example.png', channel: 'red' } } };
    expect(() => loadComfyWorkflows(folderWith('red-mask', red, mapping))).toThrow(
      'mask names LoadImageMask node 12, whose channel must be "alpha" (transparent = change)',
    );
  });

  it('stops start-up on a file that is not an API-format workflow', () => {
    const folder = folderWith('ui-export', { nodes: [], links: [] }, sdxlMapping());
    expect(() => loadComfyWorkflows(folder)).toThrow('not an API-format workflow');
  });

  it('stops start-up on a folder that does not exist', () => {
    expect(() => buildNodeProviderSet(loadConfig({ COMFYUI_WORKFLOWS: '/nonexistent/imagegate-workflows' }))).toThrow(
      'COMFYUI_WORKFLOWS: /nonexistent/imagegate-workflows is not a readable folder',
    );
  });
});
