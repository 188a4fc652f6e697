import { AddToCollection } from '../../components/add-to-collection.js';
import { Requires } from '../../components/requires.js';
import { plural } from '../../lib/format.js';

/** What to do with the selected images: add them to a collection, delete them (with undo), or let go. */
export function BulkBar({
  ids,
  onDelete,
  onClear,
  onAdded,
}: {
  ids: readonly string[];
  onDelete: () => void;
  onClear: () => void;
  onAdded: (message: string) => void;
}) {
  return (
    <section class="bulk-bar" aria-label="Selected images">
      <p class="bulk-count" role="status">
        {plural(ids.length, 'image')} selected
      </p>
      <AddToCollection imageIds={ids} idPrefix="bulk" onAdded={onAdded} />
      <div class="actions">
        <Requires permission="manage" action="delete images">
          <button type="button" class="button danger-outline" onClick={onDelete}>
            Delete selected
          </button>
        </Requires>
        <button type="button" class="button" onClick={onClear}>
          Clear selection
        </button>
      </div>
    </section>
  );
}
