import { useState } from 'preact/hooks';
import type { Model, Template } from '../../api/types.js';
import { control, Field, FormError } from '../../components/field.js';
import { ModelOptions } from '../../components/model-options.js';
import { errorFor, formError, type Action } from '../../hooks/use-action.js';
import { useFormCheck } from '../../hooks/use-form-check.js';
import { draftFromTemplate, emptyDraft, settingsFor, type Draft } from '../../lib/draft.js';
import { ParameterFields } from '../generate/parameter-fields.js';

export interface TemplateBody {
  name: string;
  model: string;
  default_prompt: string;
  parameters: Record<string, unknown>;
}

interface TemplateFormProps {
  idPrefix: string;
  models: readonly Model[];
  template?: Template;
  submitLabel: string;
  action: Action<[TemplateBody], unknown>;
  onDone: () => void;
  onCancel?: () => void;
}

const FIELDS = ['name', 'model', 'default_prompt', 'parameters', 'width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'];

/** Create or edit a template: a name, a model, a default prompt, and the settings the model takes. */
export function TemplateForm({ idPrefix, models, template, submitLabel, action, onDone, onCancel }: TemplateFormProps) {
  const fallbackModel = models.find((m) => m.available)?.id ?? '';
  const [name, setName] = useState(template?.name ?? '');
  const [draft, setDraft] = useState<Draft>(template === undefined ? emptyDraft(fallbackModel) : draftFromTemplate(template, emptyDraft(fallbackModel)));
  const model = models.find((m) => m.id === draft.model);
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const id = (field: string) => `${idPrefix}-${field}`;
  // The app's own check replaces the browser's bubbles (noValidate), and an error goes once its field is fixed. The
  // settings are `parameters.<name>` to the API, and their errors are said beside the button, as the API's are.
  const check = useFormCheck(action, {
    fieldsOf: (controlId) => {
      const name = controlId.slice(idPrefix.length + 1).replaceAll('-', '_');
      if (name === 'name' || name === 'model') return [name];
      if (name === 'prompt') return ['default_prompt'];
      return name === 'size' ? ['parameters.width', 'parameters.height'] : [`parameters.${name}`];
    },
  });
  const failure = check.failure;
  // Errors inside `parameters` name the setting after the dot (parameters.width).
  const parameterFailure = failure?.field?.startsWith('parameters') === true ? failure : undefined;

  return (
    <form
      class="stack"
      noValidate
      onInput={check.onEdit}
      onChange={check.onEdit}
      onSubmit={async (event) => {
        event.preventDefault();
        if (!check.passes(event.currentTarget)) return;
        const body = { name, model: draft.model, default_prompt: draft.prompt, parameters: { ...settingsFor(draft, model) } };
        if ((await action.run(body)) !== undefined) onDone();
      }}
    >
      <Field id={id('name')} label="Name" error={errorFor(failure, 'name')}>
        <input
          {...control(id('name'), { error: errorFor(failure, 'name') })}
          type="text"
          maxLength={100}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </Field>
      <Field id={id('model')} label="Model" error={errorFor(failure, 'model')}>
        <select
          {...control(id('model'), { error: errorFor(failure, 'model') })}
          value={draft.model}
          onChange={(event) => change({ model: event.currentTarget.value, width: '', height: '' })}
        >
          <ModelOptions models={models} />
        </select>
      </Field>
      <Field id={id('prompt')} label="Default prompt" error={errorFor(failure, 'default_prompt')}>
        <textarea
          {...control(id('prompt'), { error: errorFor(failure, 'default_prompt') })}
          rows={2}
          value={draft.prompt}
          onInput={(event) => change({ prompt: event.currentTarget.value })}
        />
      </Field>
      <ParameterFields idPrefix={idPrefix} draft={draft} model={model} failure={undefined} onChange={change} />
      <div class="actions">
        <button type="submit" class="button primary" disabled={action.busy}>
          {submitLabel}
        </button>
        {onCancel !== undefined && (
          <button type="button" class="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      <FormError text={parameterFailure?.text ?? formError(failure, FIELDS)} />
    </form>
  );
}
