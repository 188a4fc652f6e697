import { randomUUID } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { isRecord } from '../http-support.js';
import { sendBytes, sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest, type Responder } from '../../../test-support/loopback-server.js';
import { handleUpload, missingInputs, type InputFolder } from './comfyui-upload.fake.js';
import { MIME, sampleImages, type FakeOptions } from '../../../test-support/fake-images.js';

/*
 * ComfyUI's HTTP and websocket API on loopback, as Comfy-Org/ComfyUI at a125cd84 (2025-10-11) serves it:
 * server.py (POST /prompt answering { prompt_id, number, node_errors } or 400 { error, node_errors }; GET
 * /history/{id} answering {} until the prompt is done, then { id: { prompt, outputs, status, meta } }; GET /queue;
 * GET /view; POST /interrupt with an optional prompt_id; POST /queue { delete }; GET /system_stats; /ws?clientId=),
 * execution.py and main.py (the messages sent to the prompt's client_id: execution_start, execution_cached,
 * executing, progress, executed, execution_success or execution_error / execution_interrupted, then executing
 * with node null). Uploads and the image loaders' file check: comfyui-upload-fake.ts.
 *
 * Progress as main.py's hijack_progress sends it: `progress` `{ value, max, prompt_id, node }` for each sampling step
 * of the node running, value 1..steps of its `steps` input (the sampler's progress bar, comfy/utils.py ProgressBar
 * update_absolute(step + 1, total)), after the node's `executing`.
 */

export interface ComfyFakeOptions extends FakeOptions {
  /** `events`: send the documented messages; `silent`: accept the socket, never speak; `refused`: no websocket. */
  websocket?: 'events' | 'silent' | 'refused';
  /**
   * `finish` (default): the prompt finishes at once; `forever`: it runs until interrupted; `after-first-poll`: it
   * finishes just after the first history check found it unfinished (so only the websocket can tell in time).
   */
  run?: 'finish' | 'forever' | 'after-first-poll';
  /** How a finished prompt ends: an image, or an execution error in node 3. */
  outcome?: 'success' | 'error';
  /** The server's request size limit (`--max-upload-size`, 100 MB by default), applied to uploads. */
  maxUploadBytes?: number;
  /**
   * With `run: 'finish'`, sends the run's messages (each node's `executing`, each sampler step's `progress`) this many
   * ms apart, the prompt finishing only after them, as a real run does; by default all at once as it finishes.
   */
  stepMs?: number;
}

export interface QueuedPrompt {
  id: string;
  clientId: string;
  graph: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  number: number;
  done: boolean;
}

export interface ComfyFake {
  baseUrl: string;
  server: LoopbackServer;
  prompts: QueuedPrompt[];
  /** Prompts queued: each is GPU time. */
  creations(): number;
  /** Sockets that connected, by clientId. */
  sockets: string[];
  /** Files uploaded with POST /upload/image, by the name a LoadImage node loads them by. */
  inputs: InputFolder;
  set(options: ComfyFakeOptions): void;
  close(): Promise<void>;
}

const SAVE_FILE = { filename: 'imagegate_00001_.png', subfolder: 'imagegate', type: 'output' };

export async function startComfyUiFake(initial: ComfyFakeOptions = {}): Promise<ComfyFake> {
  const images = await sampleImages();
  let options = initial;
  const prompts: QueuedPrompt[] = [];
  const history = new Map<string, Record<string, unknown>>();
  const clients = new Map<string, WebSocket>();
  const sockets: string[] = [];
  const inputs: InputFolder = new Map();
  const send = (clientId: string, type: string, data: Record<string, unknown>) => clients.get(clientId)?.send(JSON.stringify({ type, data }));

  const talks = () => options.websocket === undefined || options.websocket === 'events';
  const finish = (prompt: QueuedPrompt, ending: 'execution_success' | 'execution_error' | 'execution_interrupted', ran = false) => {
    if (prompt.done) return;
    prompt.done = true;
    const talk = talks();
    const output = Object.keys(prompt.graph).find((id) => prompt.graph[id]?.class_type === 'SaveImage') ?? '9';
    const ending_data: Record<string, unknown> =
      ending === 'execution_error'
        ? {
            prompt_id: prompt.id,
            node_id: '3',
            node_type: 'KSampler',
            executed: [],
            exception_message: 'CUDA out of memory. Tried to allocate 2.00 GiB',
            exception_type: 'torch.OutOfMemoryError',
            traceback: [],
          }
        : { prompt_id: prompt.id, node_id: '3', node_type: 'KSampler', executed: [] };
    if (talk) {
      if (!ran && ending !== 'execution_interrupted')
        for (const [type, data] of runMessages(prompt, ending === 'execution_error')) send(prompt.clientId, type, data);
      if (ending === 'execution_success')
        send(prompt.clientId, 'executed', { node: output, display_node: output, output: { images: [SAVE_FILE] }, prompt_id: prompt.id });
      send(prompt.clientId, ending, ending === 'execution_success' ? { prompt_id: prompt.id, timestamp: 1 } : ending_data);
    }
    history.set(prompt.id, {
      prompt: [prompt.number, prompt.id, prompt.graph, { client_id: prompt.clientId }, [output]],
      outputs: ending === 'execution_success' ? { [output]: { images: [SAVE_FILE] } } : {},
      status: {
        status_str: ending === 'execution_success' ? 'success' : 'error',
        completed: ending === 'execution_success',
        messages: [
          ['execution_start', { prompt_id: prompt.id, timestamp: 0 }],
          [ending, ending === 'execution_success' ? { prompt_id: prompt.id, timestamp: 1 } : ending_data],
        ],
      },
      meta: {},
    });
    if (talk) send(prompt.clientId, 'executing', { node: null, prompt_id: prompt.id });
  };

  const ending = () => (options.outcome === 'error' ? 'execution_error' : 'execution_success');
  /** Runs the prompt step by step, `stepMs` apart, then finishes it (unless it was interrupted meanwhile). */
  const runStepped = (prompt: QueuedPrompt, stepMs: number) => {
    const messages = talks() ? runMessages(prompt, options.outcome === 'error') : [];
    const next = (index: number) => {
      if (prompt.done) return;
      const message = messages[index];
      if (message === undefined) return finish(prompt, ending(), true);
      send(prompt.clientId, message[0], message[1]);
      setTimeout(() => next(index + 1), stepMs);
    };
    next(0);
  };
  const responder: Responder = (request, response) => comfyRoute(request, response);
  const server = await startLoopbackServer(responder);

  async function comfyRoute(request: RecordedRequest, response: Parameters<Responder>[1]): Promise<void> {
    const { method, path } = request;
    const url = new URL(path, 'http://fake');
    const body = isRecord(request.body) ? request.body : {};
    if (method === 'POST' && url.pathname === '/upload/image') return handleUpload(request, response, inputs, options.maxUploadBytes);
    if (method === 'POST' && url.pathname === '/prompt') {
      const graph = isRecord(body.prompt) ? (body.prompt as QueuedPrompt['graph']) : undefined;
      if (graph === undefined)
        return sendJson(response, 400, {
          error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} },
          node_errors: {},
        });
      const invalid = validationErrors(graph) ?? missingInputs(graph, inputs);
      if (invalid !== undefined) return sendJson(response, 400, invalid);
      const prompt: QueuedPrompt = {
        id: typeof body.prompt_id === 'string' ? body.prompt_id : randomUUID(),
        clientId: String(body.client_id ?? ''),
        graph,
        number: prompts.length,
        done: false,
      };
      prompts.push(prompt);
      sendJson(response, 200, { prompt_id: prompt.id, number: prompt.number, node_errors: {} });
      const { stepMs } = options;
      if ((options.run === undefined || options.run === 'finish') && stepMs !== undefined) setImmediate(() => runStepped(prompt, stepMs));
      else if (options.run === undefined || options.run === 'finish') setImmediate(() => finish(prompt, ending()));
      return;
    }
    const historyOf = /^\/history\/([^/]+)$/.exec(url.pathname)?.[1];
    if (method === 'GET' && historyOf !== undefined) {
      const id = decodeURIComponent(historyOf);
      const entry = history.get(id);
      sendJson(response, 200, entry === undefined ? {} : { [id]: entry });
      const running = prompts.find((p) => p.id === id && !p.done);
      if (running !== undefined && options.run === 'after-first-poll') setImmediate(() => finish(running, ending()));
      return;
    }
    if (method === 'GET' && url.pathname === '/queue') {
      const running = prompts.filter((p) => !p.done).map((p) => [p.number, p.id, p.graph, {}, []]);
      return sendJson(response, 200, { queue_running: running, queue_pending: [] });
    }
    if (method === 'GET' && url.pathname === '/view') {
      if (url.searchParams.get('filename') !== SAVE_FILE.filename) return sendBytes(response, 404, 'text/plain', Buffer.from('404: Not Found'));
      const format = options.answer ?? 'png';
      return sendBytes(response, 200, MIME[format], images[format]);
    }
    if (method === 'POST' && url.pathname === '/interrupt') {
      const running = prompts.find((p) => !p.done && p.id === body.prompt_id);
      if (running !== undefined) finish(running, 'execution_interrupted');
      return sendBytes(response, 200, 'text/plain', Buffer.from(''));
    }
    if (method === 'POST' && url.pathname === '/queue') return sendBytes(response, 200, 'text/plain', Buffer.from(''));
    if (method === 'GET' && url.pathname === '/system_stats') {
      return sendJson(response, 200, {
        system: { os: 'posix', comfyui_version: '0.3.64', python_version: '3.12.3', embedded_python: false },
        devices: [{ name: 'cuda:0 NVIDIA GeForce RTX 4090', type: 'cuda', index: 0 }],
      });
    }
    sendJson(response, 404, { error: `no route for ${method} ${path}` });
  }

  const wss = new WebSocketServer({ noServer: true });
  server.httpServer.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (url.pathname !== '/ws' || options.websocket === 'refused') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const clientId = url.searchParams.get('clientId') ?? randomUUID();
      sockets.push(clientId);
      clients.set(clientId, ws);
      ws.on('close', () => clients.delete(clientId));
      if (options.websocket !== 'silent') ws.send(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: 0 } }, sid: clientId } }));
    });
  });

  return {
    baseUrl: server.origin,
    server,
    prompts,
    sockets,
    inputs,
    creations: () => prompts.length,
    set: (next) => {
      options = next;
    },
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await server.close();
    },
  };
}

/** ComfyUI's validation answer for values it refuses (execution.py validate_inputs), for the two cases tests need. */
function validationErrors(graph: QueuedPrompt['graph']): Record<string, unknown> | undefined {
  for (const [id, node] of Object.entries(graph)) {
    const steps = node.inputs.steps;
    if (node.class_type === 'KSampler' && typeof steps === 'number' && steps > 10_000) {
      return nodeError(id, node.class_type, { type: 'value_bigger_than_max', message: 'Value bigger than max', details: `steps, ${steps} > 10000` });
    }
    if (node.class_type === 'CheckpointLoaderSimple' && node.inputs.ckpt_name === 'missing.safetensors') {
      return nodeError(id, node.class_type, {
        type: 'value_not_in_list',
        message: 'Value not in list',
        details: "ckpt_name: 'missing.safetensors' not in ['sd_xl_base_1.0.safetensors']",
      });
    }
  }
  return undefined;
}

const nodeError = (id: string, classType: string, error: Record<string, unknown>) => ({
  error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} },
  node_errors: { [id]: { errors: [{ ...error, extra_info: {} }], dependent_outputs: ['9'], class_type: classType } },
});

/** The largest `steps` the fake runs a sampler for: each step is a message. */
const MAX_FAKE_STEPS = 100;

/**
 * What execution.py and main.py send a prompt's client while it runs, up to its output: `execution_start`,
 * `execution_cached` (nothing cached here), then each node's `executing` in the graph's order and, for a sampler,
 * a `progress` per step. A run that fails stops at its sampler (node 3 in the fake's error), before its steps.
 */
function runMessages(prompt: QueuedPrompt, failing: boolean): [string, Record<string, unknown>][] {
  const prompt_id = prompt.id;
  const messages: [string, Record<string, unknown>][] = [
    ['execution_start', { prompt_id, timestamp: 0 }],
    ['execution_cached', { nodes: [], prompt_id, timestamp: 0 }],
  ];
  for (const [node, { class_type, inputs }] of Object.entries(prompt.graph)) {
    if (class_type === 'SaveImage') break;
    messages.push(['executing', { node, display_node: node, prompt_id }]);
    if (!class_type.includes('KSampler')) continue;
    if (failing) break;
    const max = Math.min(MAX_FAKE_STEPS, typeof inputs.steps === 'number' ? inputs.steps : 20);
    for (let value = 1; value <= max; value += 1) messages.push(['progress', { value, max, prompt_id, node }]);
  }
  return messages;
}
