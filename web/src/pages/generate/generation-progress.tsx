import { useEffect, useState } from 'preact/hooks';
import type { Model } from '../../api/types.js';

/** A generation is one request: its progress is time, set against how long the model usually takes. */
export function GenerationProgress({ model }: { model: Model | undefined }) {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div class="progress-panel">
      <p role="status">Generating with {model?.name ?? 'the model'}…</p>
      <progress aria-label="Generating" />
      {/* Outside the live region: a screen reader should not read out every second. */}
      <p class="muted">
        {seconds} s so far{model === undefined ? '' : `; usually about ${model.typical_seconds} s`}
      </p>
    </div>
  );
}
