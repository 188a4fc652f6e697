import type { Model } from '../../api/types.js';
import { control, Field } from '../../components/field.js';
import { errorFor } from '../../hooks/use-action.js';
import type { ApiFailure } from '../../lib/api-error.js';
import { outputFormatFor, type Draft } from '../../lib/draft.js';

const FORMAT_NAMES: Readonly<Record<string, string>> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP' };
const QUALITY_NAMES: Readonly<Record<string, string>> = { low: 'Low', medium: 'Medium', high: 'High', auto: 'Auto' };

interface OutputFieldsProps {
  draft: Draft;
  model: Model | undefined;
  failure: ApiFailure | undefined;
  onChange: (patch: Partial<Draft>) => void;
}

/** The file the picture comes back as (format, compression), and quality and background where the model has them. */
export function OutputFields({ draft, model, failure, onChange }: OutputFieldsProps) {
  const outputs = model?.outputs;
  if (outputs === undefined) return null;
  const format = outputFormatFor(draft, model);
  const formats = outputs.formats.filter((name) => name !== 'png');
  if (formats.length === 0 && outputs.quality.length === 0 && !outputs.transparent_background && !outputs.partial_images) return null;
  const select = (
    name: 'output_format' | 'quality' | 'background' | 'partial_images',
    label: string,
    value: string,
    options: [string, string][],
    hint?: string,
  ) => {
    const id = `gen-${name.replace('_', '-')}`;
    const error = errorFor(failure, name);
    return (
      <Field id={id} label={label} hint={hint} error={error}>
        <select {...control(id, { error, hint: hint !== undefined })} value={value} onChange={(event) => onChange({ [name]: event.currentTarget.value })}>
          {options.map(([optionValue, text]) => (
            <option key={optionValue} value={optionValue}>
              {text}
            </option>
          ))}
        </select>
      </Field>
    );
  };
  const compressionError = errorFor(failure, 'output_compression');
  return (
    <div class="parameter-grid">
      {formats.length > 0 &&
        select('output_format', 'Output format', format, [['', 'PNG'], ...formats.map((name): [string, string] => [name, FORMAT_NAMES[name] ?? name])])}
      {format !== '' && format !== 'png' && (
        <Field id="gen-output-compression" label="Compression" hint="0 to 100" error={compressionError}>
          <input
            {...control('gen-output-compression', { hint: true, error: compressionError })}
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            placeholder="default"
            value={draft.output_compression}
            onInput={(event) => onChange({ output_compression: event.currentTarget.value })}
          />
        </Field>
      )}
      {outputs.quality.length > 0 &&
        select('quality', 'Quality', draft.quality, [
          ['', 'Model default'],
          ...[...outputs.quality, 'auto'].map((name): [string, string] => [name, QUALITY_NAMES[name] ?? name]),
        ])}
      {outputs.transparent_background &&
        select('background', 'Background', draft.background, [
          ['', 'Model default'],
          ['transparent', 'Transparent'],
          ['opaque', 'Opaque'],
          ['auto', 'Auto'],
        ])}
      {outputs.partial_images &&
        select(
          'partial_images',
          'Partial images',
          draft.partial_images,
          [
            ['', 'None'],
            ['1', '1'],
            ['2', '2'],
            ['3', '3'],
          ],
          'Previews while it draws; the provider bills them as output tokens.',
        )}
    </div>
  );
}
