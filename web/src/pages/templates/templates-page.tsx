import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { Model, Template } from '../../api/types.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { FormError } from '../../components/field.js';
import { Loading } from '../../components/loading.js';
import { useHolds } from '../../components/only.js';
import { modelUnusable } from '../../components/model-options.js';
import { PageHeading } from '../../components/page-heading.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { navigate } from '../../router.js';
import { TemplateForm, type TemplateBody } from './template-form.js';

export function TemplatesPage() {
  const { loaded, reload } = useLoad(async (signal) => {
    const [templates, models] = await Promise.all([
      dataOf(api.GET('/api/templates', { params: { query: { limit: 100 } }, signal })),
      dataOf(api.GET('/api/models', { params: { query: { limit: 100 } }, signal })),
    ]);
    return { templates: templates.templates, models: models.models };
  }, []);
  const create = useAction((body: TemplateBody) => dataOf(api.POST('/api/templates', { body })));
  const [formKey, setFormKey] = useState(0);
  const canCreate = useHolds('manage');

  return (
    <>
      <PageHeading title="Templates" />
      <Loading loaded={loaded} label="templates">
        {({ templates, models }) => {
          const mine = templates.filter((t) => !t.is_sample);
          const samples = templates.filter((t) => t.is_sample);
          return (
            <div class="two-columns">
              <div>
                <section aria-labelledby="your-templates">
                  <h2 id="your-templates">Your templates</h2>
                  {mine.length === 0 ? (
                    <p class="muted">{canCreate ? 'None yet. Create one here, or start from a sample below.' : 'None yet.'}</p>
                  ) : (
                    <TemplateList templates={mine} models={models} onChanged={reload} />
                  )}
                  {/* In place of a New template panel that could only refuse: what it takes, in a line. */}
                  {!canCreate && <p class="hint">Creating and changing templates need a manage key.</p>}
                </section>
                <section aria-labelledby="sample-templates">
                  <h2 id="sample-templates">Samples</h2>
                  <p class="muted">Read-only examples that come with imagegate.</p>
                  <TemplateList templates={samples} models={models} onChanged={reload} />
                </section>
              </div>
              {canCreate && (
                <section aria-labelledby="new-template" class="panel">
                  <h2 id="new-template">New template</h2>
                  <TemplateForm
                    key={formKey}
                    idPrefix="new-template"
                    models={models}
                    submitLabel="Create template"
                    action={create}
                    onDone={() => {
                      setFormKey((n) => n + 1);
                      reload();
                    }}
                  />
                </section>
              )}
            </div>
          );
        }}
      </Loading>
    </>
  );
}

function TemplateList({ templates, models, onChanged }: { templates: Template[]; models: Model[]; onChanged: () => void }) {
  return (
    <ul class="list">
      {templates.map((template) => (
        <TemplateItem key={template.id} template={template} models={models} onChanged={onChanged} />
      ))}
    </ul>
  );
}

function TemplateItem({ template, models, onChanged }: { template: Template; models: Model[]; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const update = useAction((body: TemplateBody) => dataOf(api.PUT('/api/templates/{id}', { params: { path: { id: template.id } }, body })));
  const remove = useAction(async () => {
    await dataOf(api.DELETE('/api/templates/{id}', { params: { path: { id: template.id } } }));
    onChanged();
  });
  const settings = Object.entries(template.parameters).map(([name, value]) => `${name} ${String(value)}`);
  const model = models.find((m) => m.id === template.model);
  // A template whose model cannot run here would only lead to a Generate button that cannot be pressed.
  const unusable = model === undefined ? `${template.model} is not a model of this server.` : modelUnusable(model);
  // Use opens Generate: without generate it would open a form that cannot be sent, so it is left out.
  const canUse = useHolds('generate');
  // Change and delete are left out without manage: the New template panel already says why, once.
  const canManage = useHolds('manage');
  const reasonId = `template-${template.id}-unusable`;

  if (editing) {
    return (
      <li class="list-item">
        <h3 class="list-title">Edit {template.name}</h3>
        <TemplateForm
          idPrefix={`edit-${template.id}`}
          models={models}
          template={template}
          submitLabel="Save template"
          action={update}
          onCancel={() => setEditing(false)}
          onDone={() => {
            setEditing(false);
            onChanged();
          }}
        />
      </li>
    );
  }
  return (
    <li class="list-item">
      <h3 class="list-title">
        {template.name} {template.is_sample && <span class="badge">sample</span>}
      </h3>
      <p>{template.default_prompt}</p>
      <p class="muted">
        {model?.name ?? template.model}
        {settings.length > 0 ? ` · ${settings.join(', ')}` : ''}
      </p>
      {(canUse || (!template.is_sample && canManage)) && (
        <div class="actions">
          {canUse && (
            <button
              type="button"
              class="button primary"
              aria-label={`Use ${template.name}`}
              disabled={unusable !== undefined}
              aria-describedby={unusable === undefined ? undefined : reasonId}
              onClick={() => navigate(`/generate?template=${encodeURIComponent(template.id)}`)}
            >
              Use
            </button>
          )}
          {!template.is_sample && canManage && (
            <>
              <button type="button" class="button" aria-label={`Edit ${template.name}`} onClick={() => setEditing(true)}>
                Edit
              </button>
              <ConfirmButton
                label="Delete"
                name={`Delete ${template.name}`}
                question={`Delete ${template.name}?`}
                confirmLabel="Yes, delete it"
                busy={remove.busy}
                onConfirm={() => remove.run()}
              />
            </>
          )}
        </div>
      )}
      {canUse && unusable !== undefined && (
        <p id={reasonId} class="hint">
          {unusable}
        </p>
      )}
      <FormError text={remove.failure?.text} />
    </li>
  );
}
