import { WebSocket } from 'undici';
import { stringAt } from '../http-support.js';
import { comfyMessage, type ComfyMessage } from './comfyui-progress.js';

/**
 * Messages on ComfyUI's websocket that mean a prompt has stopped running (main.py and execution.py): `executing`
 * with `node: null` once it is done, `execution_success`, `execution_error`, `execution_interrupted`.
 */
const FINISHING = new Set(['execution_success', 'execution_error', 'execution_interrupted']);

/** How long to wait for the socket to open before submitting anyway (history polling covers a missing socket). */
const OPEN_TIMEOUT_MS = 5_000;

export interface PromptEvents {
  /** Waits until `ms` passed, the socket reports `promptId` finished, or `signal` aborts (which rejects). */
  wait(promptId: string, ms: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * Follows ComfyUI's websocket (`/ws?clientId=`) to learn early that a prompt finished, and hands each text message to
 * `listener` (progress). Only a hint: the history endpoint stays the source of truth, so a socket that never opens,
 * drops or stays silent only means waiting for the next poll, without progress.
 */
export async function watchPromptEvents(url: string, listener?: (message: ComfyMessage) => void): Promise<PromptEvents> {
  const finished = new Set<string>();
  const waiters = new Set<() => void>();
  let socket: WebSocket | undefined;
  try {
    socket = new WebSocket(url);
  } catch {
    socket = undefined;
  }
  socket?.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return; // binary messages are latent previews
    const message = comfyMessage(event.data);
    if (message === undefined) return;
    listener?.(message);
    const id = finishedPrompt(message);
    if (id === undefined) return;
    finished.add(id);
    for (const wake of waiters) wake();
  });
  // Errors only end the hint; polling carries on.
  socket?.addEventListener('error', () => undefined);
  if (socket !== undefined) await opened(socket);

  return {
    wait(promptId, ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted === true) return reject(reasonOf(signal));
        if (finished.has(promptId)) return resolve();
        const done = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          signal?.removeEventListener('abort', onAbort);
        };
        const wake = () => {
          if (!finished.has(promptId)) return;
          done();
          resolve();
        };
        const onAbort = () => {
          done();
          reject(reasonOf(signal));
        };
        const timer = setTimeout(() => {
          done();
          resolve();
        }, ms);
        waiters.add(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    close() {
      waiters.clear();
      try {
        socket?.close();
      } catch {
        // already closed or never opened
      }
    },
  };
}

/** The prompt id a message reports as finished, if it does. */
function finishedPrompt({ type, data }: ComfyMessage): string | undefined {
  const promptId = stringAt(data.prompt_id);
  if (promptId === undefined) return undefined;
  if (FINISHING.has(type) || (type === 'executing' && data.node === null)) return promptId;
  return undefined;
}

function opened(socket: WebSocket): Promise<void> {
  return new Promise<void>((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(settle, OPEN_TIMEOUT_MS);
    socket.addEventListener('open', settle, { once: true });
    socket.addEventListener('error', settle, { once: true });
    socket.addEventListener('close', settle, { once: true });
  });
}

const reasonOf = (signal: AbortSignal | undefined): Error => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
