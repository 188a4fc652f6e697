import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Image, Model, Template } from '../../api/types.js';
import { control, Field, FormError } from '../../components/field.js';
import { modelHint, ModelOptions } from '../../components/model-options.js';
import { PageHeading } from '../../components/page-heading.js';
import { errorFor, formError, useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { Loading } from '../../components/loading.js';
import { draftFromTemplate, emptyDraft, generateRequest, type Draft } from '../../lib/draft.js';
import type { ApiFailure } from '../../lib/api-error.js';
import type { PageProps } from '../types.js';
import { GenerationProgress } from './generation-progress.js';
import { GenerationResult } from './generation-result.js';
import { ParameterFields } from './parameter-fields.js';

const FIELDS = ['prompt', 'model', 'template_id', 'width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'];

export function GeneratePage({ query }: PageProps) {
  const { loaded } = useLoad(
    async (signal) => {
      const [models, templates] = await Promise.all([
        api.get<{ models: Model[] }>('/api/models?limit=100', { signal }),
        api.get<{ templates: Template[] }>('/api/templates?limit=100', { signal }),
      ]);
      return { models: models.models, templates: templates.templates };
    },
    [],
  );
  return (
    <>
      <PageHeading title="Generate" />
      <Loading loaded={loaded} label="models and templates">
        {({ models, templates }) => <GenerateForm models={models} templates={templates} templateId={query.get('template') ?? undefined} />}
      </Loading>
    </>
  );
}

function GenerateForm({ models, templates, templateId }: { models: Model[]; templates: Template[]; templateId: string | undefined }) {
  const initialModel = models.find((model) => model.available)?.id ?? models[0]?.id ?? '';
  const [draft, setDraft] = useState<Draft>(() => {
    const template = templates.find((t) => t.id === templateId);
    return template === undefined ? emptyDraft(initialModel) : draftFromTemplate(template, emptyDraft(initialModel));
  });
  const [result, setResult] = useState<Image | undefined>(undefined);
  const model = models.find((m) => m.id === draft.model);
  const generate = useAction((body: Record<string, unknown>) => api.post<Image>('/api/generate', body));
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));

  const submit = async (next: Draft) => {
    const image = await generate.run(generateRequest(next, models.find((m) => m.id === next.model)));
    if (image !== undefined) setResult(image);
  };
  const failure = generate.failure;
  useFocusFailedField(failure);

  return (
    <div class="generate">
      <form
        class="stack generate-form"
        aria-busy={generate.busy}
        onSubmit={(event) => {
          event.preventDefault();
          void submit(draft);
        }}
      >
        <Field id="gen-template" label="Template" hint="Fills in the model, prompt and settings; what you change here wins." error={errorFor(failure, 'template_id')}>
          <select
            {...control('gen-template', { hint: true, error: errorFor(failure, 'template_id') })}
            value={draft.templateId}
            onChange={(event) => {
              const template = templates.find((t) => t.id === event.currentTarget.value);
              setDraft(template === undefined ? { ...draft, templateId: '' } : draftFromTemplate(template, draft));
            }}
          >
            <option value="">No template</option>
            {templates.map((template) => (
              <option key={template.id} value={template.id}>
                {template.name}
                {template.is_sample ? ' (sample)' : ''}
              </option>
            ))}
          </select>
        </Field>
        <Field id="gen-prompt" label="Prompt" hint="3 to 4,000 characters." error={errorFor(failure, 'prompt')}>
          <textarea {...control('gen-prompt', { hint: true, error: errorFor(failure, 'prompt') })} rows={3} value={draft.prompt} onInput={(event) => change({ prompt: event.currentTarget.value })} />
        </Field>
        <Field id="gen-model" label="Model" hint={modelHint(model)} error={errorFor(failure, 'model')}>
          <select
            {...control('gen-model', { hint: true, error: errorFor(failure, 'model') })}
            value={draft.model}
            onChange={(event) => change({ model: event.currentTarget.value, width: '', height: '' })}
          >
            <ModelOptions models={models} />
          </select>
        </Field>
        <ParameterFields idPrefix="gen" draft={draft} model={model} failure={failure} onChange={change} />
        <div class="actions">
          <button type="submit" class="button primary" disabled={generate.busy}>
            {generate.busy ? 'Generating…' : 'Generate'}
          </button>
        </div>
        <FormError text={formError(failure, FIELDS)} />
      </form>
      <div class="generate-output">
        {generate.busy && <GenerationProgress model={model} />}
        {result !== undefined && !generate.busy && (
          <GenerationResult
            image={result}
            busy={generate.busy}
            onAgain={(seed) => {
              const next = { ...draft, seed };
              setDraft(next);
              void submit(next);
            }}
          />
        )}
      </div>
    </div>
  );
}

/** After a refused request, the field the API named takes the focus, so its error is read out with it. */
function useFocusFailedField(failure: ApiFailure | undefined): void {
  useEffect(() => {
    const field = failure?.field;
    if (field === undefined) return;
    const id = field === 'template_id' ? 'gen-template' : `gen-${field.replace('_', '-')}`;
    (document.getElementById(id) ?? document.getElementById('gen-size'))?.focus();
  }, [failure]);
}
