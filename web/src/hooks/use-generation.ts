import { useEffect, useRef, useState } from 'preact/hooks';
import { followGeneration, type Follower, type FollowState } from '../api/follow-generation.js';
import type { Generation } from '../api/types.js';
import type { GenerationView } from '../lib/generation-state.js';

const NOTHING: FollowState = { view: undefined, failure: undefined };

export interface LiveGeneration extends FollowState {
  /** Takes in a generation read elsewhere (the answer to a cancel). */
  apply(generation: Generation): void;
}

/** One generation, followed live from the moment `id` is set until it ends or `id` changes. */
export function useGeneration(id: string | undefined): LiveGeneration {
  const [state, setState] = useState<FollowState>(NOTHING);
  const follower = useRef<Follower | undefined>(undefined);
  useEffect(() => {
    setState(NOTHING);
    if (id === undefined) return;
    const current = followGeneration(id, setState);
    follower.current = current;
    return () => current.stop();
  }, [id]);
  // Until the new one is read, nothing of the one followed before shows under its id.
  const mine = state.view?.generation.id === id ? state : { ...NOTHING, failure: state.view === undefined ? state.failure : undefined };
  return { ...mine, apply: (generation) => follower.current?.apply(generation) };
}

/**
 * Several generations followed at once (a batch's running prompts), each by its own stream. At most `limit` streams
 * are open, so a large batch never takes every connection the browser allows a server (six on HTTP/1.1).
 */
export function useGenerations(ids: readonly string[], limit: number): ReadonlyMap<string, GenerationView> {
  const [views, setViews] = useState<ReadonlyMap<string, GenerationView>>(new Map());
  const followers = useRef(new Map<string, Follower>());
  const wanted = ids.slice(0, limit);
  const key = wanted.join(' ');
  useEffect(() => {
    const running = followers.current;
    for (const [id, follower] of running) {
      if (wanted.includes(id)) continue;
      follower.stop();
      running.delete(id);
    }
    for (const id of wanted) {
      if (running.has(id)) continue;
      running.set(
        id,
        followGeneration(id, ({ view }) => {
          if (view !== undefined) setViews((current) => new Map(current).set(id, view));
        }),
      );
    }
  }, [key]);
  useEffect(
    () => () => {
      for (const follower of followers.current.values()) follower.stop();
      followers.current.clear();
    },
    [],
  );
  return views;
}
