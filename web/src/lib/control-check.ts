export type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export const isControl = (target: unknown): target is Control =>
  target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;

/**
 * What a control's own constraints (min, max, step, minLength, type="url", required) find wrong with its value,
 * worded as the API words the same problem (`width must be at most 2048 (got 4096)`), so a person reads one voice
 * whichever of the two caught it; undefined when nothing is. The forms set noValidate and show these words under the
 * field instead of the browser's bubbles, which look and read differently from every other error in the app.
 */
export function controlProblem(control: Control, field: string): string | undefined {
  const validity = control.validity;
  if (!control.willValidate || validity.valid) return undefined;
  const got = JSON.stringify(control.value);
  const attribute = (name: string) => control.getAttribute(name) ?? '';
  if (validity.badInput) return `${field} must be a number`;
  if (validity.valueMissing) return `${field} is required`;
  if (validity.rangeUnderflow) return `${field} must be at least ${attribute('min')} (got ${control.value})`;
  if (validity.rangeOverflow) return `${field} must be at most ${attribute('max')} (got ${control.value})`;
  if (validity.stepMismatch) {
    const step = attribute('step');
    return step === '' || step === '1' ? `${field} must be an integer (got ${control.value})` : `${field} must be a multiple of ${step} (got ${control.value})`;
  }
  if (validity.tooShort) return `${field} must be at least ${attribute('minlength')} characters`;
  if (validity.tooLong) return `${field} must be at most ${attribute('maxlength')} characters`;
  if (validity.typeMismatch && control.type === 'url') return `${field} must be an absolute URL (got ${got})`;
  return `${field} has the wrong form (got ${got})`;
}
