import { useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api-error.js';
import { controlProblem, isControl, type Control } from '../lib/control-check.js';

export interface FormCheck {
  /** What to show: the app's own check of the controls when it found something, else the API's answer. */
  failure: ApiFailure | undefined;
  /** First thing in onSubmit: false when a control is wrong, which is then named under it and focused. */
  passes: (form: HTMLFormElement) => boolean;
  /** The form's onInput and onChange: the error about the field being edited goes once it is right, or says what still is not. */
  onEdit: (event: Event) => void;
}

interface FormCheckOptions {
  /** The API fields a control stands for, where its id does not say (`gen-size` is width and height). */
  aliases?: Readonly<Record<string, readonly string[]>>;
  /** The API fields of a control by its id, for a form whose ids follow another rule than `<prefix>-<field>`. */
  fieldsOf?: (id: string) => readonly string[];
}

/** `gen-output-compression` is output_compression: a form's ids are usually a prefix and the API field, with dashes. */
const byPrefix = (id: string): readonly string[] => (id.includes('-') ? [id.slice(id.indexOf('-') + 1).replaceAll('-', '_')] : []);

/** `prompts.2` (the third line) belongs to the prompts box. */
const owns = (fields: readonly string[], field: string): boolean => fields.some((name) => field === name || field.startsWith(`${name}.`));

const ownFailure = (field: string, message: string) => new ApiFailure(0, message, { field, message }, 'INVALID_PARAMETER');

/**
 * The check a form runs in place of the browser's (it sets noValidate), and the clearing of a field's error once the
 * field is right again: an error left under a field that has been fixed reads as if it still were wrong.
 */
export function useFormCheck(action: { failure: ApiFailure | undefined; clear: () => void }, options: FormCheckOptions = {}): FormCheck {
  const [own, setOwn] = useState<ApiFailure | undefined>(undefined);
  const aliases = options.aliases ?? {};
  const fieldsOf = (control: Control) => aliases[control.id] ?? (options.fieldsOf ?? byPrefix)(control.id);
  const failure = own ?? action.failure;
  return {
    failure,
    passes: (form) => {
      // The API's last answer was about the last request: whatever this one finds, it no longer stands.
      action.clear();
      for (const element of form.elements) {
        if (!isControl(element)) continue;
        const field = fieldsOf(element)[0];
        const problem = field === undefined ? undefined : controlProblem(element, field);
        if (field === undefined || problem === undefined) continue;
        setOwn(ownFailure(field, problem));
        element.focus();
        return false;
      }
      setOwn(undefined);
      return true;
    },
    onEdit: (event) => {
      const target = event.target;
      const field = failure?.field;
      if (!isControl(target) || field === undefined || !owns(fieldsOf(target), field)) return;
      // The API's rules that the control does not carry (a model that is not offered) are the API's to check again.
      const problem = controlProblem(target, field);
      if (problem === undefined) {
        setOwn(undefined);
        action.clear();
      } else setOwn(ownFailure(field, problem));
    },
  };
}
