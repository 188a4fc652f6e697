import { control, Field } from '../../components/field.js';

/** How far the result may stray from the input image, as a slider with its value beside it. */
export function StrengthField({ value, error, onChange }: { value: string; error: string | undefined; onChange: (value: string) => void }) {
  return (
    <Field id="gen-strength" label="Strength" hint="0 keeps the input image as it is, 1 ignores it." error={error}>
      <div class="range-row">
        <input
          {...control('gen-strength', { hint: true, error })}
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={value}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
        <output for="gen-strength">{Number(value).toFixed(2)}</output>
      </div>
    </Field>
  );
}
