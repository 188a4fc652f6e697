import { useState } from 'preact/hooks';
import { asFailure, type ApiFailure } from '../lib/api-error.js';

export interface Action<A extends unknown[], R> {
  /** Runs the call; resolves to its result, or to undefined when it failed (the failure is kept). */
  run: (...args: A) => Promise<R | undefined>;
  busy: boolean;
  failure: ApiFailure | undefined;
  clear: () => void;
}

/** A call the user starts (a form, a button): whether it is running, and how it failed. */
export function useAction<A extends unknown[], R>(call: (...args: A) => Promise<R>): Action<A, R> {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | undefined>(undefined);
  const run = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setFailure(undefined);
    try {
      return await call(...args);
    } catch (error) {
      setFailure(asFailure(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, failure, clear: () => setFailure(undefined) };
}

/** The failure's words when the API says `field` is the problem. */
export const errorFor = (failure: ApiFailure | undefined, field: string): string | undefined =>
  failure !== undefined && failure.field === field ? failure.text : undefined;

/** The failure's words when no field of this form is named: shown beside the form's button. */
export const formError = (failure: ApiFailure | undefined, fields: readonly string[]): string | undefined =>
  failure !== undefined && (failure.field === undefined || !fields.includes(failure.field)) ? failure.text : undefined;
