import { useEffect, useState } from 'preact/hooks';
import { control, Field } from '../../components/field.js';
import { errorFor } from '../../hooks/use-action.js';
import type { ImageModel } from '../../hooks/use-image-models.js';
import type { ApiFailure } from '../../lib/api-error.js';

export interface GalleryFilters {
  q: string;
  model: string;
  from: string;
  to: string;
  /**
   * '' for the gallery (generated images and files uploaded on purpose), else the image kind: 'generated', or
   * 'upload' for every upload, the inputs and masks of edits included.
   */
  kind: string;
}

interface GalleryFiltersProps {
  filters: GalleryFilters;
  models: readonly ImageModel[];
  failure: ApiFailure | undefined;
  /** Only what changed: a search that lands after a model change must not put the old model back. */
  onChange: (patch: Partial<GalleryFilters>) => void;
}

/** Search as you type (after a short pause, or at once with Enter), and filters that apply when changed. */
export function GalleryFilterForm({ filters, models, failure, onChange }: GalleryFiltersProps) {
  const [q, setQ] = useState(filters.q);
  useEffect(() => setQ(filters.q), [filters.q]);
  useEffect(() => {
    if (q === filters.q) return;
    const timer = setTimeout(() => onChange({ q }), 350);
    return () => clearTimeout(timer);
  }, [q]);

  const qError = errorFor(failure, 'q');
  const fromError = errorFor(failure, 'from');
  const toError = errorFor(failure, 'to');
  return (
    <form
      class="filters"
      role="search"
      aria-label="Images"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ q });
      }}
    >
      <div class="filter-search">
        <Field id="gallery-search" label="Search" hint="Words in the prompt, any case" error={qError}>
          <input {...control('gallery-search', { hint: true, error: qError })} type="search" value={q} onInput={(event) => setQ(event.currentTarget.value)} />
        </Field>
      </div>
      <Field id="gallery-model" label="Model">
        <select id="gallery-model" value={filters.model} onChange={(event) => onChange({ model: event.currentTarget.value })}>
          <option value="">All models</option>
          {models.map((model) => (
            <option key={model.id} value={model.id}>
              {model.name}
            </option>
          ))}
        </select>
      </Field>
      {/* Edits store their input images and masks as uploads: out of the way by default, all there under Uploads. */}
      <Field id="gallery-kind" label="Kind" hint="Edit inputs and masks are only under Uploads">
        <select {...control('gallery-kind', { hint: true })} value={filters.kind} onChange={(event) => onChange({ kind: event.currentTarget.value })}>
          {/* Short enough for the select at phone width; the hint says what All leaves out. */}
          <option value="">All</option>
          <option value="generated">Generated</option>
          <option value="upload">Uploads</option>
        </select>
      </Field>
      <Field id="gallery-from" label="From" error={fromError}>
        <input
          {...control('gallery-from', { error: fromError })}
          type="date"
          value={filters.from}
          onChange={(event) => onChange({ from: event.currentTarget.value })}
        />
      </Field>
      <Field id="gallery-to" label="To" error={toError}>
        <input
          {...control('gallery-to', { error: toError })}
          type="date"
          value={filters.to}
          onChange={(event) => onChange({ to: event.currentTarget.value })}
        />
      </Field>
      <button type="submit" class="visually-hidden">
        Search
      </button>
    </form>
  );
}
