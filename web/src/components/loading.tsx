import type { ComponentChildren } from 'preact';
import type { Loaded } from '../hooks/use-load.js';

/** The three states of loaded data: a quiet "Loading", the API's words on failure, or the content. */
export function Loading<T>({ loaded, label, children }: { loaded: Loaded<T>; label: string; children: (value: T) => ComponentChildren }) {
  if (loaded.state === 'loading') {
    return (
      <p class="muted" role="status">
        Loading {label}…
      </p>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <p class="form-error" role="alert">
        Could not load {label}. {loaded.failure.text}
      </p>
    );
  }
  return <>{children(loaded.value)}</>;
}
