import { randomUUID } from 'node:crypto';
import type { CallJournal, FailureKind, ImageProvider, ProviderCallOptions, ProviderRequest } from '../../../ports/image-provider.js';
import { checkRequest, clip, downloadImage, failOnHttpError, fireAndForget, isRecord, readBody, stringAt, type ReadBody } from '../http-support.js';
import { steadyProgress } from '../progress-reports.js';
import { watchPromptEvents, type PromptEvents } from './comfyui-events.js';
import { promptProgress } from './comfyui-progress.js';
import { checkInputs, NO_UPLOADS, uploadInputs, type UploadedInputs } from './comfyui-uploads.js';
import type { ComfyGraph, ComfyWorkflow, NodeInput } from './workflows.js';

export interface ComfyUiOptions {
  /** The server's address, e.g. `http://127.0.0.1:8188` (COMFYUI_URL). */
  baseUrl: string;
  workflows: readonly ComfyWorkflow[];
  fetch?: typeof fetch;
  /** Between `/history/{id}` checks when the websocket says nothing (default 1 s). */
  pollIntervalMs?: number;
  /** Prompt and client ids (default random UUIDs). */
  newId?: () => string;
}

/** The workflow with the request's values, and the names of its uploaded images, put into the nodes its mapping names. */
export function fillWorkflow(workflow: ComfyWorkflow, request: ProviderRequest, uploaded: UploadedInputs = NO_UPLOADS): ComfyGraph {
  const graph = structuredClone(workflow.graph);
  const set = (target: NodeInput | undefined, value: string | number | undefined) => {
    const node = target === undefined ? undefined : graph[target.node];
    if (target !== undefined && node !== undefined && value !== undefined) node.inputs[target.input] = value;
  };
  const { nodes } = workflow;
  set(nodes.prompt, request.prompt);
  set(nodes.seed, request.seed);
  // Without one from the caller, the workflow keeps its own negative prompt.
  set(nodes.negative_prompt, request.negativePrompt);
  set(nodes.width, request.width);
  set(nodes.height, request.height);
  set(nodes.steps, request.steps);
  set(nodes.guidance, request.guidance);
  // Without one from the caller, the workflow keeps its own denoise.
  set(nodes.strength, request.strength);
  for (const [index, target] of (nodes.images ?? []).entries()) set(target, uploaded.images[index]);
  set(nodes.mask, uploaded.mask);
  return graph;
}

/** `POST /prompt` answers 400 `{ error: { message }, node_errors: { id: { errors: [{ type, message, details }] } } }`. */
const nodeErrors = (json: Record<string, unknown>): Record<string, unknown>[] =>
  (isRecord(json.node_errors) ? Object.values(json.node_errors) : [])
    .filter(isRecord)
    .flatMap((node) => (Array.isArray(node.errors) ? node.errors.filter(isRecord) : []));

const describeError = ({ json, text }: ReadBody): string | undefined => {
  const top = isRecord(json.error) ? stringAt(json.error.message) : stringAt(json.error);
  const nodes = nodeErrors(json).map((e) => [stringAt(e.message), stringAt(e.details)].filter(Boolean).join(': '));
  const parts = [top, ...nodes].filter((part): part is string => part !== undefined && part !== '');
  return parts.length > 0 ? parts.join('; ') : text === '' ? undefined : clip(text);
};

/** A value out of range is the caller's; anything else (a missing checkpoint or node type) is the operator's workflow. */
const CALLER_ERRORS = new Set(['value_bigger_than_max', 'value_smaller_than_min', 'invalid_input_type']);
const classify = (status: number, { json }: ReadBody): FailureKind | undefined => {
  if (status !== 400) return undefined;
  const types = nodeErrors(json).map((e) => stringAt(e.type) ?? '');
  if (types.length === 0) return undefined;
  return types.every((type) => CALLER_ERRORS.has(type)) ? 'refusal' : 'account';
};

/** The history entry's images: the mapped output node's, else the first node's that has any. */
function outputImage(entry: Record<string, unknown>, outputNode: string | undefined): Record<string, unknown> | undefined {
  const outputs = isRecord(entry.outputs) ? entry.outputs : {};
  const nodeIds = outputNode === undefined ? Object.keys(outputs) : [outputNode];
  for (const id of nodeIds) {
    const node = outputs[id];
    const first: unknown = isRecord(node) && Array.isArray(node.images) ? node.images[0] : undefined;
    if (isRecord(first)) return first;
  }
  return undefined;
}

/** Why a finished prompt failed, from its history messages (`execution_error`, `execution_interrupted`). */
function failureOf(entry: Record<string, unknown>): string | undefined {
  const status = isRecord(entry.status) ? entry.status : {};
  if (status.status_str !== 'error') return undefined;
  const messages = Array.isArray(status.messages) ? status.messages : [];
  for (const message of messages) {
    if (!Array.isArray(message) || !isRecord(message[1])) continue;
    const data = message[1];
    if (message[0] === 'execution_interrupted') return 'it was interrupted';
    if (message[0] === 'execution_error')
      return `node ${String(data.node_id ?? '?')} (${String(data.node_type ?? '?')}) failed: ${clip(stringAt(data.exception_message)?.trim() ?? 'no message')}`;
  }
  return 'it finished with an error';
}

/**
 * A ComfyUI server: the input images are uploaded with `POST /upload/image`, then the workflow filled in is
 * submitted with `POST /prompt` under a prompt id chosen here (so a retry knows it even if the answer was lost),
 * followed on the websocket and, whatever the socket says or not, on `GET /history/{id}`; the image is fetched
 * with `GET /view`. A call given up on interrupts and dequeues the prompt.
 */
export function createComfyUiProvider(options: ComfyUiOptions): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const socketBase = base.replace(/^http/, 'ws');
  const newId = options.newId ?? randomUUID;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const workflows = new Map(options.workflows.map((workflow) => [workflow.id, workflow]));
  const json = { 'Content-Type': 'application/json' };

  async function getJson(path: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const response = await doFetch(`${base}${path}`, { signal });
    await failOnHttpError('ComfyUI', response, describeError);
    return (await readBody(response)).json;
  }

  const historyOf = async (promptId: string, signal?: AbortSignal) => {
    const entry = (await getJson(`/history/${encodeURIComponent(promptId)}`, signal))[promptId];
    return isRecord(entry) ? entry : undefined;
  };

  /** Whether the server knows the prompt (finished, running or waiting): a submission whose answer was lost. */
  async function known(promptId: string, signal?: AbortSignal): Promise<boolean> {
    if ((await historyOf(promptId, signal)) !== undefined) return true;
    const queue = await getJson('/queue', signal);
    const items = [queue.queue_running, queue.queue_pending].flatMap((list) => (Array.isArray(list) ? list : []));
    return items.some((item) => Array.isArray(item) && item[1] === promptId);
  }

  async function submit(graph: ComfyGraph, promptId: string, clientId: string, journal: CallJournal, signal?: AbortSignal): Promise<void> {
    const response = await doFetch(`${base}/prompt`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ prompt: graph, client_id: clientId, prompt_id: promptId }),
      signal,
    });
    // ComfyUI itself said no, so nothing was queued; a lost answer (network, a gateway's 502 or 504) stays pending.
    if (!response.ok && response.status !== 502 && response.status !== 504) journal.job = undefined;
    await failOnHttpError('ComfyUI', response, describeError, classify);
    await response.body?.cancel();
  }

  async function finishedEntry(promptId: string, events: PromptEvents, signal?: AbortSignal): Promise<Record<string, unknown>> {
    for (;;) {
      const entry = await historyOf(promptId, signal);
      if (entry !== undefined) return entry;
      await events.wait(promptId, pollIntervalMs, signal);
    }
  }

  async function run(request: ProviderRequest, journal: CallJournal, { signal, onProgress }: ProviderCallOptions): Promise<string> {
    const workflow = workflows.get(request.providerModel);
    if (workflow === undefined) throw new Error(`ComfyUI has no workflow ${request.providerModel} (COMFYUI_WORKFLOWS)`);
    checkInputs(workflow, request);
    const clientId = newId();
    // The socket is this call's alone (its client id), so every progress message on it is about this call's prompt.
    const progress = onProgress === undefined ? undefined : promptProgress(workflow.graph, steadyProgress(onProgress));
    const events = await watchPromptEvents(`${socketBase}/ws?clientId=${encodeURIComponent(clientId)}`, progress);
    try {
      if (journal.job === undefined || (journal.job.pending === true && !(await known(journal.job.id, signal)))) {
        const promptId = journal.job?.id ?? newId();
        // Uploaded before queueing: the prompt's LoadImage nodes name the files, which must exist when it is validated.
        const uploaded = await uploadInputs(doFetch, base, request, promptId, signal);
        journal.job = { id: promptId, pending: true };
        await submit(fillWorkflow(workflow, request, uploaded), promptId, clientId, journal, signal);
      }
      const promptId = journal.job.id;
      journal.job = { id: promptId };
      const entry = await finishedEntry(promptId, events, signal);
      const failure = failureOf(entry);
      if (failure !== undefined) throw new Error(`ComfyUI could not run ${workflow.id} (prompt ${promptId}): ${failure}`);
      const image = outputImage(entry, workflow.nodes.output);
      const filename = image === undefined ? undefined : stringAt(image.filename);
      if (image === undefined || filename === undefined) throw new Error(`ComfyUI prompt ${promptId} finished without an image`);
      const query = new URLSearchParams({ filename, subfolder: stringAt(image.subfolder) ?? '', type: stringAt(image.type) ?? 'output' });
      return `${base}/view?${query.toString()}`;
    } finally {
      events.close();
    }
  }

  return {
    id: 'comfyui',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const journal = callOptions?.journal ?? {};
      // The seed sent is the one used: ComfyUI does not pick its own.
      journal.output ??= { url: await run(request, journal, callOptions ?? {}), seed: request.seed };
      return { ...(await downloadImage('ComfyUI', doFetch, journal.output.url, { signal, origin: base, headers: {} })), seed: request.seed };
    },
    cancel(journal) {
      const promptId = journal.job?.id;
      if (promptId === undefined) return;
      // Interrupts it only if it is the one running (server.py), and takes it off the queue if it is still waiting.
      fireAndForget(doFetch, `${base}/interrupt`, { method: 'POST', headers: json, body: JSON.stringify({ prompt_id: promptId }) });
      fireAndForget(doFetch, `${base}/queue`, { method: 'POST', headers: json, body: JSON.stringify({ delete: [promptId] }) });
    },
    check: (signal) => checkRequest('ComfyUI', doFetch, `${base}/system_stats`, { signal }, describeError),
  };
}
