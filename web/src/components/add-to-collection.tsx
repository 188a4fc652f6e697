import { useState } from 'preact/hooks';
import { api, dataOf } from '../api/client.js';
import { useAction } from '../hooks/use-action.js';
import { useLoad } from '../hooks/use-load.js';
import { plural } from '../lib/format.js';
import { control } from './field.js';
import { Requires } from './requires.js';

interface AddToCollectionProps {
  imageIds: readonly string[];
  idPrefix: string;
  onAdded?: (message: string) => void;
}

/** Adding to a collection needs the manage permission (POST /api/collections/{id}/images): a key without it is told why. */
export function AddToCollection(props: AddToCollectionProps) {
  return (
    <Requires permission="manage" action="add images to collections">
      <CollectionPicker {...props} />
    </Requires>
  );
}

/**
 * A collection picker and an "Add" button for one image or several. The outcome is said beside it, or by
 * the caller when it passes `onAdded` (a bulk bar goes away once its images are added).
 */
function CollectionPicker({ imageIds, idPrefix, onAdded }: AddToCollectionProps) {
  const { loaded } = useLoad((signal) => dataOf(api.GET('/api/collections', { params: { query: { limit: 100 } }, signal })), []);
  const collections = loaded.state === 'ready' ? loaded.value.collections : [];
  const [chosen, setChosen] = useState('');
  const [done, setDone] = useState<string | undefined>(undefined);
  const add = useAction(async (collectionId: string) => {
    for (const id of imageIds) await dataOf(api.POST('/api/collections/{id}/images', { params: { path: { id: collectionId } }, body: { image_id: id } }));
    return collectionId;
  });
  const id = `${idPrefix}-collection`;
  const collectionId = chosen === '' ? (collections[0]?.id ?? '') : chosen;
  const name = collections.find((c) => c.id === collectionId)?.name ?? '';

  if (loaded.state === 'ready' && collections.length === 0) {
    return <p class="hint">No collections yet: create one on the Collections page.</p>;
  }
  const error = add.failure?.text ?? (loaded.state === 'failed' ? loaded.failure.text : undefined);
  return (
    <div class="inline-form">
      <label for={id}>Collection</label>
      <select {...control(id, { error })} value={collectionId} onChange={(event) => setChosen(event.currentTarget.value)} disabled={loaded.state !== 'ready'}>
        {collections.map((collection) => (
          <option key={collection.id} value={collection.id}>
            {collection.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        class="button"
        disabled={add.busy || collectionId === '' || imageIds.length === 0}
        onClick={async () => {
          setDone(undefined);
          if ((await add.run(collectionId)) === undefined) return;
          const message = `Added ${imageIds.length === 1 ? 'the image' : plural(imageIds.length, 'image')} to ${name}.`;
          if (onAdded === undefined) setDone(message);
          else onAdded(message);
        }}
      >
        {add.busy ? 'Adding…' : 'Add to collection'}
      </button>
      <p role="status" class="inline-status">
        {done}
      </p>
      {error !== undefined && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
