import { useEffect, useRef, useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { ApiKey, ApiKeyChanges } from '../../api/types.js';
import { FormError } from '../../components/field.js';
import { formError, useAction } from '../../hooks/use-action.js';
import { budgetValue, expiryValue, KeyLimitFields, LIMIT_FIELDS, limitsOf } from './key-limit-fields.js';

interface EditKeyFormProps {
  apiKey: ApiKey;
  onDone: (changed: ApiKey | undefined) => void;
}

/** Changes a key's budgets and expiry; only what was changed is sent, so untouched terms are never re-checked. */
export function EditKeyForm({ apiKey, onDone }: EditKeyFormProps) {
  const initial = limitsOf(apiKey);
  const [limits, setLimits] = useState(initial);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form opens away from the button that opened it: say where focus went.
  useEffect(() => heading.current?.focus(), [apiKey.id]);

  // Resolves to what changed (nothing when no box was touched); undefined from run() means it failed.
  const save = useAction(async (): Promise<{ changed: ApiKey | undefined }> => {
    const changes: ApiKeyChanges = {};
    if (limits.daily !== initial.daily) changes.daily_budget_usd = budgetValue(limits.daily);
    if (limits.monthly !== initial.monthly) changes.monthly_budget_usd = budgetValue(limits.monthly);
    if (limits.expires !== initial.expires) changes.expires_at = expiryValue(limits.expires);
    if (Object.keys(changes).length === 0) return { changed: undefined };
    return { changed: await dataOf(api.PATCH('/api/keys/{id}', { params: { path: { id: apiKey.id } }, body: changes })) };
  });

  return (
    <section class="panel edit-key" aria-labelledby="edit-key">
      <h2 id="edit-key" ref={heading} tabIndex={-1}>
        Change {apiKey.name}
      </h2>
      <form
        class="stack"
        onSubmit={async (event) => {
          event.preventDefault();
          const saved = await save.run();
          if (saved !== undefined) onDone(saved.changed);
        }}
      >
        <KeyLimitFields idPrefix="edit-key" limits={limits} onChange={setLimits} failure={save.failure} />
        <div class="actions">
          <button type="submit" class="button primary" disabled={save.busy}>
            Save changes
          </button>
          <button type="button" class="button" onClick={() => onDone(undefined)}>
            Cancel
          </button>
        </div>
        <FormError text={formError(save.failure, LIMIT_FIELDS)} />
      </form>
    </section>
  );
}
