import { asFailure, type ApiFailure } from '../lib/api-error.js';
import { applyEvent, isFinal, withSnapshot, type GenerationView } from '../lib/generation-state.js';
import { sseParser } from '../lib/sse.js';
import { api, dataOf } from './client.js';
import type { Generation } from './types.js';

export interface FollowState {
  view: GenerationView | undefined;
  /** Why it could not be read or followed just now; cleared by the next thing that arrives. */
  failure: ApiFailure | undefined;
}

export interface Follower {
  /** A generation read elsewhere (a cancel's answer) is taken in like any other read. */
  apply(generation: Generation): void;
  stop(): void;
}

const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 15_000;
/** The events do not say when the queue moves: while queued, the generation is read again this often. */
const QUEUE_READ_MS = 2_000;

/**
 * Follows one generation to its end: GET it, then (unless it already ended) read its events. A stream that ends
 * before the generation did (a proxy cut it, the server restarted, the network changed) is opened again, sooner
 * after a success and later after each failure; the server starts every stream with the current state, so nothing
 * missed is needed. A 4xx (not found, not allowed) is final and shown.
 */
export function followGeneration(id: string, onChange: (state: FollowState) => void): Follower {
  const controller = new AbortController();
  const signal = controller.signal;
  const read = (): Promise<Generation> => dataOf(api.GET('/api/generations/{id}', { params: { path: { id } }, signal }));
  let state: FollowState = { view: undefined, failure: undefined };
  const set = (next: FollowState) => {
    if (signal.aborted) return;
    state = next;
    onChange(state);
  };
  const take = (generation: Generation) => set({ view: withSnapshot(state.view, generation), failure: undefined });
  const ended = () => state.view !== undefined && isFinal(state.view.generation.status);

  const follow = async () => {
    let wait = FIRST_RETRY_MS;
    while (!signal.aborted && !ended()) {
      try {
        if (state.view === undefined) take(await read());
        if (ended()) return;
        await readEvents(id, signal, (event, data) => {
          set({ view: applyEvent(state.view, event, data), failure: undefined });
          wait = FIRST_RETRY_MS;
        });
      } catch (error) {
        if (signal.aborted) return;
        const failure = asFailure(error);
        set({ ...state, failure });
        if (failure.status >= 400 && failure.status < 500 && failure.status !== 408 && failure.status !== 429) return;
      }
      if (ended()) return;
      await sleep(wait, signal);
      wait = Math.min(wait * 2, LONGEST_RETRY_MS);
    }
  };

  const watchQueue = async () => {
    while (!signal.aborted && !ended()) {
      await sleep(QUEUE_READ_MS, signal);
      if (state.view?.generation.status !== 'queued') continue;
      // A missed read is only a stale position: the next one, or the stream, brings it up to date.
      await read().then(take, () => undefined);
    }
  };

  void follow();
  void watchQueue();
  return {
    apply: take,
    stop: () => controller.abort(),
  };
}

/**
 * Reads a generation's event stream to its end, each message's data parsed as JSON (undefined when it is not). Read
 * with fetch rather than EventSource, which cannot send the key: the app's key goes in the Authorization header only.
 */
async function readEvents(id: string, signal: AbortSignal, onEvent: (event: string, data: unknown) => void): Promise<void> {
  const body = await dataOf(
    api.GET('/api/generations/{id}/events', { params: { path: { id } }, signal, parseAs: 'stream', headers: { Accept: 'text/event-stream' } }),
  );
  const reader = body?.getReader();
  if (reader === undefined) return;
  const decoder = new TextDecoder();
  const parse = sseParser((message) => onEvent(message.event, parseJson(message.data)));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parse(decoder.decode(value, { stream: true }));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
