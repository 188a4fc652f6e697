import type { ApiKey } from '../../api/types.js';
import { control, Field } from '../../components/field.js';
import { errorFor } from '../../hooks/use-action.js';
import type { ApiFailure } from '../../lib/api-error.js';

/** A key's budgets and expiry as the form's boxes hold them: text, empty for none. */
export interface KeyLimits {
  daily: string;
  monthly: string;
  expires: string;
}

export const NO_LIMITS: KeyLimits = { daily: '', monthly: '', expires: '' };

/** The API fields these boxes answer for, so an error about one shows under its box. */
export const LIMIT_FIELDS = ['daily_budget_usd', 'monthly_budget_usd', 'expires_at'];

export const budgetValue = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** A datetime-local box holds the browser's own time without a zone; the API wants an instant. */
export const expiryValue = (text: string): string | null => (text === '' ? null : new Date(text).toISOString());

function localInput(iso: string): string {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export const limitsOf = (key: ApiKey): KeyLimits => ({
  daily: key.daily_budget_usd === null ? '' : String(key.daily_budget_usd),
  monthly: key.monthly_budget_usd === null ? '' : String(key.monthly_budget_usd),
  expires: key.expires_at === null ? '' : localInput(key.expires_at),
});

interface KeyLimitFieldsProps {
  /** Prefixes the boxes' ids: the create form and the edit form are on one page. */
  idPrefix: string;
  limits: KeyLimits;
  onChange: (limits: KeyLimits) => void;
  failure: ApiFailure | undefined;
}

/** Daily and monthly budget and expiry: set when creating a key, changed later (PATCH). */
export function KeyLimitFields({ idPrefix, limits, onChange, failure }: KeyLimitFieldsProps) {
  const budget = (which: 'daily' | 'monthly', label: string, hint: string) => {
    const id = `${idPrefix}-${which}`;
    const error = errorFor(failure, `${which}_budget_usd`);
    return (
      <Field id={id} label={label} hint={hint} error={error}>
        <input
          {...control(id, { hint: true, error })}
          type="number"
          min={0}
          step="any"
          inputMode="decimal"
          value={limits[which]}
          onInput={(event) => onChange({ ...limits, [which]: event.currentTarget.value })}
        />
      </Field>
    );
  };
  const expiresId = `${idPrefix}-expires`;
  const expiresError = errorFor(failure, 'expires_at');
  return (
    <div class="key-limits">
      {budget('daily', 'Daily budget (USD)', 'Per UTC day; empty for none')}
      {budget('monthly', 'Monthly budget (USD)', 'Per UTC month; empty for none')}
      <Field id={expiresId} label="Expires" hint="Your local time; empty for never" error={expiresError}>
        <input
          {...control(expiresId, { hint: true, error: expiresError })}
          type="datetime-local"
          value={limits.expires}
          onInput={(event) => onChange({ ...limits, expires: event.currentTarget.value })}
        />
      </Field>
    </div>
  );
}
