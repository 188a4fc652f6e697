import type { Model } from '../../api/types.js';
import { control, Field } from '../../components/field.js';
import { errorFor } from '../../hooks/use-action.js';
import type { ApiFailure } from '../../lib/api-error.js';
import type { Draft } from '../../lib/draft.js';

interface ParameterFieldsProps {
  idPrefix: string;
  draft: Draft;
  model: Model | undefined;
  failure: ApiFailure | undefined;
  onChange: (patch: Partial<Draft>) => void;
}

/** Size, seed, negative prompt, steps and guidance: each shown only when the chosen model takes it. */
export function ParameterFields({ idPrefix, draft, model, failure, onChange }: ParameterFieldsProps) {
  const takes = (name: Model['parameters'][number]) => model === undefined || model.parameters.includes(name);
  const id = (name: string) => `${idPrefix}-${name.replace('_', '-')}`;
  const number = (
    name: 'width' | 'height' | 'seed' | 'steps' | 'guidance',
    label: string,
    attrs: { min?: number; max?: number; step?: number | 'any'; placeholder?: string; hint?: string },
  ) => {
    const error = errorFor(failure, name);
    return (
      <Field id={id(name)} label={label} hint={attrs.hint} error={error}>
        <input
          {...control(id(name), { hint: attrs.hint !== undefined, error })}
          type="number"
          inputMode={attrs.step === 'any' ? 'decimal' : 'numeric'}
          min={attrs.min}
          max={attrs.max}
          step={attrs.step ?? 1}
          placeholder={attrs.placeholder}
          value={draft[name]}
          onInput={(event) => onChange({ [name]: event.currentTarget.value })}
        />
      </Field>
    );
  };

  const sizes = model?.sizes;
  const sizeError = errorFor(failure, 'width') ?? errorFor(failure, 'height');
  return (
    <div class="parameter-grid">
      {sizes !== undefined && sizes.length > 0 ? (
        <Field id={id('size')} label="Size" error={sizeError}>
          <select
            {...control(id('size'), { error: sizeError })}
            value={draft.width === '' ? `${model?.default_width ?? ''}x${model?.default_height ?? ''}` : `${draft.width}x${draft.height}`}
            onChange={(event) => {
              const [width = '', height = ''] = event.currentTarget.value.split('x');
              onChange({ width, height });
            }}
          >
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size.replace('x', ' × ')}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <>
          {takes('width') &&
            number('width', 'Width', { min: model?.min_size, max: model?.max_width, placeholder: String(model?.default_width ?? ''), hint: 'Pixels' })}
          {takes('height') &&
            number('height', 'Height', { min: model?.min_size, max: model?.max_height, placeholder: String(model?.default_height ?? ''), hint: 'Pixels' })}
        </>
      )}
      {takes('seed') && number('seed', 'Seed', { min: 0, placeholder: 'random', hint: 'Same prompt and seed, same picture' })}
      {takes('steps') && number('steps', 'Steps', { min: 1, max: model?.max_steps, placeholder: String(model?.default_steps ?? '') })}
      {takes('guidance') && number('guidance', 'Guidance', { min: 0, max: 30, step: 'any', placeholder: 'default' })}
      {takes('negative_prompt') && (
        <div class="span-all">
          <Field id={id('negative_prompt')} label="Negative prompt" hint="What to leave out" error={errorFor(failure, 'negative_prompt')}>
            <input
              {...control(id('negative_prompt'), { hint: true, error: errorFor(failure, 'negative_prompt') })}
              type="text"
              value={draft.negative_prompt}
              onInput={(event) => onChange({ negative_prompt: event.currentTarget.value })}
            />
          </Field>
        </div>
      )}
    </div>
  );
}
