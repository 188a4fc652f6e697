import { useEffect, useState } from 'preact/hooks';
import type { Generation, Model } from '../../api/types.js';

/** Whole seconds since `from` (an ISO time), counted up once a second; 0 before it is known. */
function useSecondsSince(from: string | null): number {
  const start = from === null ? Number.NaN : Date.parse(from);
  const since = () => (Number.isNaN(start) ? 0 : Math.max(0, Math.floor((Date.now() - start) / 1000)));
  const [seconds, setSeconds] = useState(since);
  useEffect(() => {
    setSeconds(since());
    const timer = setInterval(() => setSeconds(since()), 1000);
    return () => clearInterval(timer);
  }, [start]);
  return seconds;
}

/**
 * A running generation: a real bar where the provider reports progress, else one that only says "working", with
 * the time so far set against how long the model usually takes.
 */
export function GenerationProgress({ generation, model, cancelling }: { generation: Generation; model: Model | undefined; cancelling: boolean }) {
  const seconds = useSecondsSince(generation.started_at);
  const progress = generation.progress;
  const percent = progress === undefined ? undefined : Math.round(progress * 100);
  return (
    <>
      <p role="status">{cancelling ? 'Cancelling…' : `Generating with ${model?.name ?? generation.model}…`}</p>
      {progress === undefined ? (
        <progress aria-label="Generating" />
      ) : (
        <progress aria-label="Generating" value={progress} max={1} aria-valuetext={`${String(percent)} %`} />
      )}
      {/* Outside the live region: a screen reader should not read out every second. */}
      <p class="muted">
        {percent === undefined ? '' : `${percent} % · `}
        {seconds} s so far{model === undefined ? '' : `; usually about ${model.typical_seconds} s`}
      </p>
    </>
  );
}
