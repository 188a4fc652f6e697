import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { Batch, Model, Template } from '../../api/types.js';
import { control, Field, FormError } from '../../components/field.js';
import { errorFor, formError, useAction } from '../../hooks/use-action.js';
import { useFormCheck } from '../../hooks/use-form-check.js';
import { emptyDraft, settingsFor, type Draft } from '../../lib/draft.js';
import { plural } from '../../lib/format.js';
import { ParameterFields } from '../generate/parameter-fields.js';
import { ModelField, TemplateField } from '../generate/settings-fields.js';

const FIELDS = ['name', 'prompts', 'model', 'template_id', 'width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance', 'webhook_url'];

/** The API fields of the controls whose ids do not name them. */
const CHECK_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'batch-size': ['width', 'height'],
  'batch-template': ['template_id'],
  'batch-webhook': ['webhook_url'],
};

interface BatchFormProps {
  models: readonly Model[];
  templates: readonly Template[];
  onStarted: (batch: Batch) => void;
}

/**
 * Prompts one per line (blank lines ignored), a model or a template, the settings every prompt gets (size,
 * seed, ... as Generate has them for the chosen model), and where to report when it is done.
 */
export function BatchForm({ models, templates, onStarted }: BatchFormProps) {
  const [name, setName] = useState('');
  const [prompts, setPrompts] = useState('');
  const [webhook, setWebhook] = useState('');
  // The generation settings as Generate holds them; the prompt of a draft is not used here.
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(models.find((m) => m.available && m.lifecycle !== 'shut_down')?.id ?? ''));
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const model = models.find((m) => m.id === draft.model);
  const lines = prompts
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const start = useAction(() =>
    dataOf(
      api.POST('/api/batch/create', {
        body: {
          name: name.trim() === '' ? `Batch of ${plural(lines.length, 'prompt')}` : name,
          prompts: lines,
          model: draft.model,
          ...(draft.templateId === '' ? {} : { template_id: draft.templateId }),
          ...settingsFor(draft, model),
          ...(webhook.trim() === '' ? {} : { webhook_url: webhook.trim() }),
        },
      }),
    ),
  );
  // The app's own check replaces the browser's bubbles (noValidate), and a field's error goes once it is fixed.
  const check = useFormCheck(start, { aliases: CHECK_ALIASES });
  const failure = check.failure;
  // Said beside the button (a live region): the new batch is first in the list, often out of sight of the form.
  const [started, setStarted] = useState<string | undefined>(undefined);
  // A bad prompt is named by its place in the list (prompts[2]); it belongs to the prompts box.
  const promptsError = errorFor(failure, 'prompts') ?? (failure?.field?.startsWith('prompts') === true ? failure.text : undefined);

  return (
    <form
      class="stack"
      noValidate
      onInput={check.onEdit}
      onChange={check.onEdit}
      onSubmit={async (event) => {
        event.preventDefault();
        setStarted(undefined);
        if (!check.passes(event.currentTarget)) return;
        const batch = await start.run();
        if (batch === undefined) return;
        setPrompts('');
        setName('');
        setStarted(`Started “${batch.name}” with ${plural(batch.total_prompts, 'prompt')}: it is first in Your batches.`);
        onStarted(batch);
      }}
    >
      <Field id="batch-prompts" label="Prompts" hint={`One per line; ${plural(lines.length, 'prompt')} so far.`} error={promptsError}>
        <textarea
          {...control('batch-prompts', { hint: true, error: promptsError })}
          rows={6}
          value={prompts}
          onInput={(event) => setPrompts(event.currentTarget.value)}
        />
      </Field>
      <TemplateField
        idPrefix="batch"
        hint="Fills in the model and settings; what you change here wins."
        templates={templates}
        draft={draft}
        failure={failure}
        onDraft={setDraft}
      />
      <ModelField idPrefix="batch" models={models} model={model} draft={draft} failure={failure} onChange={change} />
      <ParameterFields idPrefix="batch" draft={draft} model={model} failure={failure} onChange={change} />
      <Field id="batch-name" label="Name" hint="Optional" error={errorFor(failure, 'name')}>
        <input
          {...control('batch-name', { hint: true, error: errorFor(failure, 'name') })}
          type="text"
          maxLength={100}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </Field>
      <Field
        id="batch-webhook"
        label="Webhook URL"
        hint="Optional. Gets a signed batch.completed event when the batch is done."
        error={errorFor(failure, 'webhook_url')}
      >
        <input
          {...control('batch-webhook', { hint: true, error: errorFor(failure, 'webhook_url') })}
          type="url"
          inputMode="url"
          placeholder="https://example.com/hooks/imagegate"
          value={webhook}
          onInput={(event) => setWebhook(event.currentTarget.value)}
        />
      </Field>
      <div class="actions">
        <button type="submit" class="button primary" disabled={start.busy}>
          {start.busy ? 'Starting…' : 'Start batch'}
        </button>
      </div>
      <p class="form-status" role="status" aria-live="polite">
        {started}
      </p>
      <FormError text={promptsError === undefined ? formError(failure, FIELDS) : undefined} />
    </form>
  );
}
