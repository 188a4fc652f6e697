import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { Generation, Image, Model, Template } from '../../api/types.js';
import { control, Field, FormError } from '../../components/field.js';
import { modelUnusable } from '../../components/model-options.js';
import { errorFor, formError, useAction } from '../../hooks/use-action.js';
import { useFormCheck } from '../../hooks/use-form-check.js';
import { useGeneration } from '../../hooks/use-generation.js';
import type { ApiFailure } from '../../lib/api-error.js';
import { draftFromTemplate, emptyDraft, generateRequest, type Draft } from '../../lib/draft.js';
import { navigate } from '../../router.js';
import { GenerationHistory } from './generation-history.js';
import { useAllowance } from '../../session.js';
import { GenerationPanel } from './generation-panel.js';
import { InputImageFields } from './input-images.js';
import { MaskPainter } from './mask-painter.js';
import { OutputFields } from './output-fields.js';
import { ParameterFields } from './parameter-fields.js';
import { RecentGenerations } from './recent-generations.js';
import { ResultPlaceholder } from './result-placeholder.js';
import { draftFromImage } from './reuse-draft.js';
import { rememberResult } from './session-results.js';
import { ModelField, TemplateField } from './settings-fields.js';
import { StrengthField } from './strength-field.js';
import { useInputImages } from './use-input-images.js';
import { useMask } from './use-mask.js';

const FIELDS = [
  'prompt',
  'model',
  'template_id',
  'width',
  'height',
  'seed',
  'negative_prompt',
  'steps',
  'guidance',
  'strength',
  'output_format',
  'output_compression',
  'quality',
  'background',
  'image_ids',
  'mask_image_id',
  'partial_images',
];
/** Where the focus goes when the API names a field that has no box of its own name. */
const FOCUS_IDS: Readonly<Record<string, string>> = { template_id: 'gen-template', image_ids: 'gen-upload', mask_image_id: 'gen-mask-brush' };

/** The API fields of the controls whose ids do not name them. */
const CHECK_ALIASES: Readonly<Record<string, readonly string[]>> = { 'gen-size': ['width', 'height'], 'gen-template': ['template_id'] };

const takesImages = (model: Model | undefined): boolean => (model?.inputs?.max_images ?? 0) > 0;

/** The model to start with: the first that runs here; for an image to edit, the first of those that takes one. */
function initialModel(models: readonly Model[], editing: boolean): string {
  const available = models.filter((model) => model.available && model.lifecycle !== 'shut_down');
  const pick = (editing ? available.find(takesImages) : undefined) ?? available[0] ?? models[0];
  return pick?.id ?? '';
}

interface GenerateFormProps {
  models: Model[];
  templates: Template[];
  templateId: string | undefined;
  editImage: Image | undefined;
  /** "Reuse prompt": the form starts with this image's prompt, model and settings. */
  reuseImage?: Image | undefined;
  /** `/generations/<id>`: the generation followed beside the form (the one just sent, or one opened again). */
  generationId?: string | undefined;
}

export function GenerateForm({ models, templates, templateId, editImage, reuseImage, generationId }: GenerateFormProps) {
  const [draft, setDraft] = useState<Draft>(() => {
    const base = emptyDraft(initialModel(models, editImage !== undefined));
    if (reuseImage !== undefined) return draftFromImage(reuseImage, base, models);
    const template = templates.find((t) => t.id === templateId);
    return template === undefined ? base : draftFromTemplate(template, base);
  });
  const live = useGeneration(generationId);
  const finished = live.view?.generation.image;
  // Kept for "Earlier this session" once done, however it was followed (sent from here, or opened again).
  useEffect(() => {
    if (finished !== undefined) rememberResult(finished);
  }, [finished?.id]);
  // Opened at its address with an empty form (a reload, a link from the latest ones): the form says what it asked.
  const followed = live.view?.generation;
  useEffect(() => {
    if (followed === undefined) return;
    const model = models.some((m) => m.id === followed.model) ? { model: followed.model } : {};
    setDraft((current) => (current.prompt.trim() === '' ? { ...current, prompt: followed.prompt, ...model } : current));
  }, [followed?.id]);
  // The one just sent is brought into view: on a phone it is below the form.
  const [sentId, setSentId] = useState<string | undefined>(undefined);
  const [dropping, setDropping] = useState(false);
  const model = models.find((m) => m.id === draft.model);
  const max = model?.inputs?.max_images ?? 0;
  const inputs = useInputImages(editImage === undefined ? [] : [editImage], max);
  const mask = useMask();
  const first = inputs.images[0];
  const masking = model?.inputs?.mask === true && inputs.images.length === 1 && first !== undefined;
  // A mask is painted over one particular image: another image starts with none.
  useEffect(() => mask.clear(), [first?.id]);

  const generate = useAction(async (next: Draft) => {
    const nextModel = models.find((m) => m.id === next.model);
    const maskImageId = nextModel?.inputs?.mask === true && inputs.images.length === 1 ? await mask.upload() : undefined;
    const body = generateRequest(next, nextModel, { imageIds: inputs.images.map((image) => image.id), maskImageId });
    // A job: accepted at once, then followed at its own address, which a reload or another tab can open again. Asked
    // with Prefer: respond-async, the answer is the generation (202), never the finished image (201).
    return (await dataOf(api.POST('/api/generate', { body, headers: { Prefer: 'respond-async' } }))) as Generation;
  });
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const submit = async (next: Draft) => {
    const generation = await generate.run(next);
    if (generation === undefined) return;
    setSentId(generation.id);
    // The query stays: the form's template, image to edit or reused image are still the ones shown.
    navigate(`/generations/${encodeURIComponent(generation.id)}${location.search}`);
  };
  // The app's own check replaces the browser's bubbles (noValidate), and a field's error goes once it is fixed.
  const check = useFormCheck(generate, { aliases: CHECK_ALIASES });
  const failure = check.failure;
  useFocusFailedField(failure);
  // A key without generate sees the form (models, templates) but cannot send it, nor upload images to it.
  const allowance = useAllowance('generate', 'generate');
  const blocked = allowance.reason ?? modelUnusable(model);
  const hasFiles = (event: DragEvent) => allowance.allowed && event.dataTransfer?.types.includes('Files') === true;

  return (
    <div class="generate">
      <form
        class={dropping ? 'stack generate-form dropping' : 'stack generate-form'}
        aria-busy={generate.busy}
        noValidate
        onInput={check.onEdit}
        onChange={check.onEdit}
        onSubmit={(event) => {
          event.preventDefault();
          if (blocked === undefined && check.passes(event.currentTarget)) void submit(draft);
        }}
        // Files dropped anywhere on the form become input images (the browser would otherwise open them).
        onDragOver={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          setDropping(max > 0);
        }}
        onDragLeave={(event) => {
          if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) setDropping(false);
        }}
        onDrop={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          setDropping(false);
          void inputs.add([...(event.dataTransfer?.files ?? [])]);
        }}
      >
        {!allowance.allowed && (
          <p id="gen-blocked" class="refusal">
            {allowance.reason}
          </p>
        )}
        {/* Disabled as a whole for a key that cannot generate: nothing in it could be sent (uploads neither). */}
        <fieldset class="form-lock" disabled={!allowance.allowed}>
          <TemplateField
            idPrefix="gen"
            hint="Fills in the model, prompt and settings; what you change here wins."
            templates={templates}
            draft={draft}
            failure={failure}
            onDraft={setDraft}
          />
          <Field id="gen-prompt" label="Prompt" hint="3 to 4,000 characters." error={errorFor(failure, 'prompt')}>
            <textarea
              {...control('gen-prompt', { hint: true, error: errorFor(failure, 'prompt') })}
              rows={3}
              minLength={3}
              value={draft.prompt}
              onInput={(event) => change({ prompt: event.currentTarget.value })}
            />
          </Field>
          <ModelField idPrefix="gen" models={models} model={model} draft={draft} failure={failure} onChange={change} />
          <InputImageFields model={model} inputs={inputs}>
            {masking && <MaskPainter key={first.id} image={first} canvas={mask.canvas} painted={mask.painted} onPaint={mask.paint} onClear={mask.clear} />}
          </InputImageFields>
          {model?.inputs?.strength === true && inputs.images.length > 0 && max > 0 && (
            <StrengthField value={draft.strength} error={errorFor(failure, 'strength')} onChange={(strength) => change({ strength })} />
          )}
          <ParameterFields idPrefix="gen" draft={draft} model={model} failure={failure} onChange={change} />
          <OutputFields draft={draft} model={model} failure={failure} onChange={change} />
        </fieldset>
        <div class="actions">
          <button
            type="submit"
            class="button primary"
            disabled={generate.busy || inputs.busy || blocked !== undefined}
            aria-describedby={blocked === undefined ? undefined : 'gen-blocked'}
          >
            {generate.busy ? 'Sending…' : 'Generate'}
          </button>
        </div>
        {allowance.allowed && blocked !== undefined && (
          <p id="gen-blocked" class="refusal">
            {blocked}
          </p>
        )}
        <FormError text={formError(failure, FIELDS) ?? errorFor(failure, 'image_ids') ?? errorFor(failure, 'mask_image_id')} />
      </form>
      <div class="generate-output">
        {generationId === undefined && <ResultPlaceholder />}
        {generationId !== undefined && (
          <GenerationPanel
            live={live}
            reveal={sentId === generationId}
            model={models.find((m) => m.id === live.view?.generation.model)}
            busy={generate.busy}
            onAgain={(seed) => {
              const next = { ...draft, seed };
              setDraft(next);
              void submit(next);
            }}
          />
        )}
        <RecentGenerations current={generationId} currentStatus={live.view?.generation.status} />
        <GenerationHistory latest={finished?.id} />
      </div>
    </div>
  );
}

/** After a refused request, the field the API named takes the focus, so its error is read out with it. */
function useFocusFailedField(failure: ApiFailure | undefined): void {
  useEffect(() => {
    const field = failure?.field;
    if (field === undefined) return;
    const id = FOCUS_IDS[field] ?? `gen-${field.replace('_', '-')}`;
    (document.getElementById(id) ?? document.getElementById('gen-size'))?.focus();
  }, [failure]);
}
