import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { CreatedApiKey, Permission, Plan } from '../../api/types.js';
import { control, Field, FormError } from '../../components/field.js';
import { errorFor, formError, useAction } from '../../hooks/use-action.js';
import { budgetValue, expiryValue, KeyLimitFields, LIMIT_FIELDS, NO_LIMITS } from './key-limit-fields.js';

const PERMISSIONS: { value: Permission; label: string; hint: string }[] = [
  { value: 'read', label: 'Read', hint: 'list and view images, collections, templates, models, analytics' },
  { value: 'generate', label: 'Generate', hint: 'generate images and run batches' },
  { value: 'manage', label: 'Manage', hint: 'everything, including deleting and managing keys' },
];

const PLANS: { value: Plan; label: string }[] = [
  { value: 'standard', label: 'Standard: 100 requests per minute' },
  { value: 'pro', label: 'Pro: 500 requests per minute' },
  { value: 'enterprise', label: 'Enterprise: its own limit' },
];

export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>(['read', 'generate']);
  const [plan, setPlan] = useState<Plan>('standard');
  const [rateLimit, setRateLimit] = useState('');
  const [limits, setLimits] = useState(NO_LIMITS);
  const create = useAction(() => {
    const daily = budgetValue(limits.daily);
    const monthly = budgetValue(limits.monthly);
    const expires = expiryValue(limits.expires);
    return dataOf(
      api.POST('/api/keys', {
        body: {
          name,
          permissions,
          plan,
          ...(plan === 'enterprise' && rateLimit.trim() !== '' ? { rate_limit: Number(rateLimit) } : {}),
          ...(daily === null ? {} : { daily_budget_usd: daily }),
          ...(monthly === null ? {} : { monthly_budget_usd: monthly }),
          ...(expires === null ? {} : { expires_at: expires }),
        },
      }),
    );
  });
  const failure = create.failure;
  const permissionsError = errorFor(failure, 'permissions');

  return (
    <form
      class="stack"
      onSubmit={async (event) => {
        event.preventDefault();
        const key = await create.run();
        if (key === undefined) return;
        setName('');
        setLimits(NO_LIMITS);
        onCreated(key);
      }}
    >
      <Field id="key-name" label="Name" hint="What uses it, e.g. ci or website" error={errorFor(failure, 'name')}>
        <input
          {...control('key-name', { hint: true, error: errorFor(failure, 'name') })}
          type="text"
          maxLength={100}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </Field>
      <fieldset
        class={permissionsError === undefined ? 'checks' : 'checks has-error'}
        aria-describedby={permissionsError === undefined ? undefined : 'key-permissions-error'}
      >
        <legend>Permissions</legend>
        {PERMISSIONS.map((permission) => (
          <label key={permission.value} class="check">
            <input
              type="checkbox"
              checked={permissions.includes(permission.value)}
              onChange={(event) =>
                setPermissions(event.currentTarget.checked ? [...permissions, permission.value] : permissions.filter((p) => p !== permission.value))
              }
            />
            <span>
              {permission.label} <span class="muted">({permission.hint})</span>
            </span>
          </label>
        ))}
        {permissionsError !== undefined && (
          <p id="key-permissions-error" class="field-error">
            {permissionsError}
          </p>
        )}
      </fieldset>
      <Field id="key-plan" label="Plan" error={errorFor(failure, 'plan')}>
        <select {...control('key-plan', { error: errorFor(failure, 'plan') })} value={plan} onChange={(event) => setPlan(event.currentTarget.value as Plan)}>
          {PLANS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      {plan === 'enterprise' && (
        <Field id="key-rate-limit" label="Rate limit" hint="Requests per minute" error={errorFor(failure, 'rate_limit')}>
          <input
            {...control('key-rate-limit', { hint: true, error: errorFor(failure, 'rate_limit') })}
            type="number"
            min={1}
            step={1}
            value={rateLimit}
            onInput={(event) => setRateLimit(event.currentTarget.value)}
          />
        </Field>
      )}
      <KeyLimitFields idPrefix="key" limits={limits} onChange={setLimits} failure={failure} />
      <div class="actions">
        <button type="submit" class="button primary" disabled={create.busy}>
          Create key
        </button>
      </div>
      <FormError text={formError(failure, ['name', 'permissions', 'plan', 'rate_limit', ...LIMIT_FIELDS])} />
    </form>
  );
}
