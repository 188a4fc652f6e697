import type { ComponentChildren } from 'preact';

interface FieldProps {
  id: string;
  label: string;
  hint?: ComponentChildren;
  /** The API's words about this field, shown right under it. */
  error?: string | undefined;
  children: ComponentChildren;
}

/** A visible label, the control, a hint and the error about it, in that order. */
export function Field({ id, label, hint, error, children }: FieldProps) {
  return (
    <div class={error === undefined ? 'field' : 'field has-error'}>
      <label for={id}>{label}</label>
      {children}
      {hint !== undefined && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The control's side of a Field: its id, what describes it, and whether it is invalid. */
export function control(id: string, options: { hint?: boolean; error?: string | undefined }) {
  const describedBy = [options.hint === true ? `${id}-hint` : undefined, options.error === undefined ? undefined : `${id}-error`].filter(
    (part) => part !== undefined,
  );
  return {
    id,
    'aria-describedby': describedBy.length === 0 ? undefined : describedBy.join(' '),
    'aria-invalid': options.error === undefined ? undefined : ('true' as const),
  };
}

/** An error that no single field owns, beside the button that caused it; announced when it appears. */
export function FormError({ text }: { text: string | undefined }) {
  if (text === undefined) return null;
  return (
    <p class="form-error" role="alert">
      {text}
    </p>
  );
}
