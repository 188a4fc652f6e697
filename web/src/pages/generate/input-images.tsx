import type { ComponentChildren } from 'preact';
import type { Model } from '../../api/types.js';
import { FormError } from '../../components/field.js';
import { plural } from '../../lib/format.js';
import { imageTitle, typesInWords } from '../../lib/images.js';
import { useSession } from '../../session.js';
import type { InputImages } from './use-input-images.js';

/**
 * The images to start from, as thumbnails with a Remove button, and "Upload image" (files can also be
 * dropped anywhere on the form). Offered only for a model that takes images, with how many it takes.
 * `children` (the mask painter) come last.
 */
export function InputImageFields({ model, inputs, children }: { model: Model | undefined; inputs: InputImages; children?: ComponentChildren }) {
  const max = model?.inputs?.max_images ?? 0;
  const { uploadTypes } = useSession();
  if (max === 0 && inputs.images.length === 0 && inputs.problem === undefined) return null;
  const unused = inputs.images.length - max;
  return (
    <fieldset class="input-images" aria-describedby="gen-upload-hint">
      <legend>{max === 1 ? 'Input image' : 'Input images'}</legend>
      <p id="gen-upload-hint" class="hint">
        {max === 0
          ? `${model?.name ?? 'This model'} takes no input images.`
          : max === 1
            ? 'One image to edit (a new upload replaces it). '
            : `Up to ${max} images: the first is the one to edit, the others guide it. `}
        {max > 0 && `${typesInWords(uploadTypes)} up to 50 MB; you can also drop a file on the form.`}
      </p>
      {inputs.images.length > 0 && (
        <ul class="input-list" aria-label="Input images">
          {inputs.images.map((image) => (
            <li key={image.id} class="input-item">
              <img src={image.r2_url} alt={imageTitle(image)} width={image.width} height={image.height} />
              <span class="input-size muted">
                {image.width} × {image.height}
              </span>
              <button type="button" class="button small" onClick={() => inputs.remove(image.id)}>
                Remove<span class="visually-hidden"> {imageTitle(image)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {unused > 0 && (
        <p class="warning">
          {max === 0
            ? 'They are not sent with this model.'
            : `This model uses the first ${plural(max, 'image')}; the other ${unused} ${unused === 1 ? 'is' : 'are'} not sent.`}
        </p>
      )}
      {max > 0 && (
        <div class="upload-row">
          <input
            id="gen-upload"
            class="visually-hidden file-input"
            type="file"
            accept={uploadTypes.join(',')}
            multiple={max > 1}
            disabled={inputs.busy}
            onChange={(event) => {
              const files = [...(event.currentTarget.files ?? [])];
              // Cleared, so picking the same file again is a change too.
              event.currentTarget.value = '';
              void inputs.add(files);
            }}
          />
          <label for="gen-upload" class={inputs.busy ? 'button disabled' : 'button'}>
            Upload image
          </label>
          <p class="muted inline-status" role="status">
            {inputs.busy ? 'Uploading…' : ''}
          </p>
        </div>
      )}
      <FormError text={inputs.problem ?? inputs.failure?.text} />
      {children}
    </fieldset>
  );
}
