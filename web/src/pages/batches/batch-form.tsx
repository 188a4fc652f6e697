import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Batch, Model } from '../../api/types.js';
import { control, Field, FormError } from '../../components/field.js';
import { modelHint, ModelOptions } from '../../components/model-options.js';
import { errorFor, formError, useAction } from '../../hooks/use-action.js';
import { plural } from '../../lib/format.js';

const FIELDS = ['name', 'prompts', 'model', 'webhook_url'];

/** Prompts one per line (blank lines ignored), a model, and where to report when it is done. */
export function BatchForm({ models, onStarted }: { models: readonly Model[]; onStarted: (batch: Batch) => void }) {
  const [name, setName] = useState('');
  const [prompts, setPrompts] = useState('');
  const [model, setModel] = useState(models.find((m) => m.available)?.id ?? '');
  const [webhook, setWebhook] = useState('');
  const lines = prompts.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const start = useAction(() =>
    api.post<Batch>('/api/batch/create', {
      name: name.trim() === '' ? `Batch of ${plural(lines.length, 'prompt')}` : name,
      prompts: lines,
      model,
      ...(webhook.trim() === '' ? {} : { webhook_url: webhook.trim() }),
    }),
  );
  const failure = start.failure;
  // A bad prompt is named by its place in the list (prompts[2]); it belongs to the prompts box.
  const promptsError = errorFor(failure, 'prompts') ?? (failure?.field?.startsWith('prompts') === true ? failure.text : undefined);

  return (
    <form
      class="stack"
      onSubmit={async (event) => {
        event.preventDefault();
        const batch = await start.run();
        if (batch === undefined) return;
        setPrompts('');
        setName('');
        onStarted(batch);
      }}
    >
      <Field id="batch-prompts" label="Prompts" hint={`One per line; ${plural(lines.length, 'prompt')} so far.`} error={promptsError}>
        <textarea {...control('batch-prompts', { hint: true, error: promptsError })} rows={6} value={prompts} onInput={(event) => setPrompts(event.currentTarget.value)} />
      </Field>
      <Field id="batch-model" label="Model" hint={modelHint(models.find((m) => m.id === model))} error={errorFor(failure, 'model')}>
        <select {...control('batch-model', { hint: true, error: errorFor(failure, 'model') })} value={model} onChange={(event) => setModel(event.currentTarget.value)}>
          <ModelOptions models={models} />
        </select>
      </Field>
      <Field id="batch-name" label="Name" hint="Optional" error={errorFor(failure, 'name')}>
        <input {...control('batch-name', { hint: true, error: errorFor(failure, 'name') })} type="text" maxLength={100} value={name} onInput={(event) => setName(event.currentTarget.value)} />
      </Field>
      <Field id="batch-webhook" label="Webhook URL" hint="Optional. Gets a signed batch.completed event when the batch is done." error={errorFor(failure, 'webhook_url')}>
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
      <FormError text={promptsError === undefined ? formError(failure, FIELDS) : undefined} />
    </form>
  );
}
