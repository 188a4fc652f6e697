import { useEffect, useRef, useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { Generation, Model } from '../../api/types.js';
import { FormError } from '../../components/field.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useAction } from '../../hooks/use-action.js';
import type { LiveGeneration } from '../../hooks/use-generation.js';
import { ApiFailure } from '../../lib/api-error.js';
import { isFinal, queueText } from '../../lib/generation-state.js';
import { scrollBehavior } from '../../lib/motion.js';
import { useAllowance } from '../../session.js';
import { GenerationProgress } from './generation-progress.js';
import { GenerationResult } from './generation-result.js';

interface GenerationPanelProps {
  live: LiveGeneration;
  model: Model | undefined;
  /** Just sent from the form: scrolled to once it shows, when it is below the screen (a phone's). */
  reveal: boolean;
  /** Another generation is being sent: "again with this seed" waits for it. */
  busy: boolean;
  onAgain: (seed: string) => void;
}

/** The error a failed or cancelled generation ended with, worded as the API's errors are everywhere in the app. */
const errorText = (generation: Generation): string | undefined => {
  const error = generation.error;
  if (error === undefined) return undefined;
  const details =
    typeof error.details === 'string' || (typeof error.details === 'object' && error.details !== null)
      ? (error.details as Record<string, unknown> | string)
      : undefined;
  return new ApiFailure(0, error.error, details, error.code).text;
};

/**
 * The generation this page follows (`/generations/<id>`): queued (and how many start before it), running (progress,
 * the partial images the model sends), then its image, its error, or that it was cancelled. Cancel while it is open.
 */
export function GenerationPanel({ live, model, reveal, busy, onAgain }: GenerationPanelProps) {
  const view = live.view;
  const generation = view?.generation;
  // Once as the progress shows, once more as the result replaces it (a taller box, which grows out of sight).
  const phase = generation?.status === 'succeeded' && generation.image !== undefined ? 'result' : 'progress';
  useReveal(reveal && generation !== undefined ? `${generation.id} ${phase}` : undefined);
  const [cancelAsked, setCancelAsked] = useState<string | undefined>(undefined);
  const cancel = useAction(async (id: string) => {
    live.apply(await dataOf(api.POST('/api/generations/{id}/cancel', { params: { path: { id } } })));
    setCancelAsked(id);
  });
  const allowance = useAllowance('generate', 'cancel generations');
  if (view === undefined || generation === undefined) {
    if (live.failure !== undefined) return <FormError text={`Could not load the generation. ${live.failure.text}`} />;
    return (
      <p class="muted" role="status">
        Loading the generation…
      </p>
    );
  }
  if (generation.status === 'succeeded' && generation.image !== undefined) return <GenerationResult image={generation.image} busy={busy} onAgain={onAgain} />;

  const open = !isFinal(generation.status);
  const cancelling = cancelAsked === generation.id && open;
  return (
    <section class="progress-panel generation-panel" aria-labelledby="generation-heading">
      <div class="generation-head">
        <h2 id="generation-heading">Generation</h2>
        <StatusBadge status={generation.status} />
      </div>
      <p class="generation-prompt">{generation.prompt}</p>
      {generation.status === 'queued' && <p role="status">{queueText(generation.queue_position)}</p>}
      {generation.status === 'running' && <GenerationProgress generation={generation} model={model} cancelling={cancelling} />}
      {open && view.partial !== undefined && (
        <figure class="partial-image">
          <img src={view.partial.src} alt={`Partial image ${view.partial.index + 1} of ${generation.prompt}`} />
          <figcaption>Partial image {view.partial.index + 1}: the model is still drawing.</figcaption>
        </figure>
      )}
      {generation.status === 'failed' && <FormError text={errorText(generation) ?? 'The generation failed.'} />}
      {generation.status === 'cancelled' && (
        <p role="status">Cancelled: {generation.started_at === null ? 'it never started, and nothing was charged.' : 'stopped while it ran.'}</p>
      )}
      {generation.status === 'succeeded' && <p role="status">Done; its image has been deleted since.</p>}
      {open && allowance.allowed && (
        <div class="actions">
          <button type="button" class="button danger-outline" disabled={cancel.busy || cancelling} onClick={() => void cancel.run(generation.id)}>
            {cancelling ? 'Cancelling…' : 'Cancel generation'}
          </button>
        </div>
      )}
      <FormError text={cancel.failure?.text} />
      {live.failure !== undefined && <FormError text={`Lost touch with the generation; trying again. ${live.failure.text}`} />}
    </section>
  );
}

/**
 * Scrolls the panel, then the result that replaces it, into view once each (`key` is the generation and which of the
 * two shows). On a phone they sit under the form: after tapping Generate only a heading would show at the bottom of
 * the screen, so the whole box is brought up unless it is in sight already. Side by side with the form (a wide
 * screen) the page only moves when the panel starts low on the screen.
 */
function useReveal(key: string | undefined): void {
  const revealed = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (key === undefined || revealed.current === key) return;
    const heading = document.getElementById('generation-heading') ?? document.getElementById('result-heading');
    const section = heading?.closest('section');
    if (heading === null || section === null || section === undefined) return;
    revealed.current = key;
    const box = section.getBoundingClientRect();
    const form = document.querySelector('.generate-form')?.getBoundingClientRect();
    const underForm = form !== undefined && box.top >= form.bottom;
    const outOfSight = underForm ? box.top < 0 || box.bottom > window.innerHeight : heading.getBoundingClientRect().top > window.innerHeight * 0.6;
    if (!outOfSight) return;
    // The result is taller than the screen: its top (heading and picture) is what to see first.
    section.scrollIntoView({ block: 'start', behavior: scrollBehavior() });
  }, [key]);
}
