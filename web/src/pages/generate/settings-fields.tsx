import type { Model, Template } from '../../api/types.js';
import { control, Field } from '../../components/field.js';
import { modelHint, ModelOptions } from '../../components/model-options.js';
import { errorFor } from '../../hooks/use-action.js';
import type { ApiFailure } from '../../lib/api-error.js';
import { draftFromTemplate, type Draft } from '../../lib/draft.js';

/*
 * The template and model pickers that Generate and Batches both put above the settings a draft holds; written once so
 * that choosing a template or a model changes a draft the same way on both pages. `idPrefix` keeps each page's ids
 * (`gen-template`, `batch-model`, ...), which its focus handling and tests rely on.
 */

interface TemplateFieldProps {
  idPrefix: string;
  /** What a template fills in on this page. */
  hint: string;
  templates: readonly Template[];
  draft: Draft;
  failure: ApiFailure | undefined;
  onDraft: (draft: Draft) => void;
}

/** Choosing a template fills the draft in from it; "No template" only forgets which one it was. */
export function TemplateField({ idPrefix, hint, templates, draft, failure, onDraft }: TemplateFieldProps) {
  const id = `${idPrefix}-template`;
  const error = errorFor(failure, 'template_id');
  return (
    <Field id={id} label="Template" hint={hint} error={error}>
      <select
        {...control(id, { hint: true, error })}
        value={draft.templateId}
        onChange={(event) => {
          const template = templates.find((t) => t.id === event.currentTarget.value);
          onDraft(template === undefined ? { ...draft, templateId: '' } : draftFromTemplate(template, draft));
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
  );
}

interface ModelFieldProps {
  idPrefix: string;
  models: readonly Model[];
  /** The chosen model, for the hint. */
  model: Model | undefined;
  draft: Draft;
  failure: ApiFailure | undefined;
  onChange: (patch: Partial<Draft>) => void;
}

/** Choosing another model clears the size, which the new model may not make. */
export function ModelField({ idPrefix, models, model, draft, failure, onChange }: ModelFieldProps) {
  const id = `${idPrefix}-model`;
  const error = errorFor(failure, 'model');
  return (
    <Field id={id} label="Model" hint={modelHint(model)} error={error}>
      <select
        {...control(id, { hint: true, error })}
        value={draft.model}
        onChange={(event) => onChange({ model: event.currentTarget.value, width: '', height: '' })}
      >
        <ModelOptions models={models} />
      </select>
    </Field>
  );
}
