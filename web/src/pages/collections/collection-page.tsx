import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import { isDeleted, scheduleDelete, useDeletes } from '../../api/pending-deletes.js';
import type { Collection, Image } from '../../api/types.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { FormError } from '../../components/field.js';
import { ImageGrid } from '../../components/image-grid.js';
import { LoadMore } from '../../components/load-more.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { Requires } from '../../components/requires.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { usePagedList } from '../../hooks/use-paged-list.js';
import { plural } from '../../lib/format.js';
import { Link, navigate } from '../../router.js';
import { deleteLabel, stepsThrough } from '../gallery/dialog-steps.js';
import { ImageDialog } from '../gallery/image-dialog.js';
import { useAllowance } from '../../session.js';
import type { PageProps } from '../types.js';

export function CollectionPage({ params }: PageProps) {
  const id = params.id ?? '';
  const { loaded, reload } = useLoad((signal) => dataOf(api.GET('/api/collections/{id}', { params: { path: { id } }, signal })), [id]);
  return (
    <Loading loaded={loaded} label="the collection">
      {(collection) => <CollectionView collection={collection} onChanged={reload} />}
    </Loading>
  );
}

function CollectionView({ collection, onChanged }: { collection: Collection; onChanged: () => void }) {
  const list = usePagedList(
    async (page) => {
      const { images, pagination } = await dataOf(api.GET('/api/collections/{id}/images', { params: { path: { id: collection.id }, query: page } }));
      return { items: images, pagination };
    },
    [collection.id],
  );
  // A picture opens its details here, on top of the collection; Previous and Next stay within it.
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  useDeletes();
  const images = list.items.filter((image) => !isDeleted(image.id));
  const removeImage = useAction(async (image: Image) => {
    await dataOf(api.DELETE('/api/collections/{id}/images/{image_id}', { params: { path: { id: collection.id, image_id: image.id } } }));
    list.remove((item) => item.id !== image.id);
    onChanged();
  });
  const manage = useAllowance('manage', 'change or delete collections');
  const deleteCollection = useAction(async () => {
    await dataOf(api.DELETE('/api/collections/{id}', { params: { path: { id: collection.id } } }));
    navigate('/collections');
  });

  return (
    <>
      <PageHeading title={collection.name}>
        <p class="muted">
          {collection.description === '' ? '' : `${collection.description} · `}
          {plural(collection.image_count, 'image')} · <Link href="/collections">All collections</Link>
        </p>
      </PageHeading>
      <FormError text={removeImage.failure?.text} />
      {images.length === 0 && !list.loading && (
        <p>
          No images here yet. Add some from the <Link href="/gallery">gallery</Link>.
        </p>
      )}
      <ImageGrid
        images={images}
        label={`Images in ${collection.name}`}
        onOpen={(image) => setOpenId(image.id)}
        actions={
          !manage.allowed
            ? undefined
            : (image) => (
                <button
                  type="button"
                  class="button small"
                  aria-label={`Remove ${image.prompt} from the collection`}
                  disabled={removeImage.busy}
                  onClick={() => void removeImage.run(image)}
                >
                  Remove
                </button>
              )
        }
      />
      <LoadMore hasMore={list.hasMore} loading={list.loading} count={list.items.length} onLoad={list.loadMore} label="Load more images" />
      {openId !== undefined && (
        <ImageDialog
          id={openId}
          preview={images.find((image) => image.id === openId)}
          onClose={() => setOpenId(undefined)}
          onOpen={setOpenId}
          onDelete={(image) => scheduleDelete([image.id], deleteLabel(image))}
          steps={stepsThrough(images, openId, setOpenId, { total: list.hasMore ? collection.image_count : images.length })}
        />
      )}
      <Requires permission="manage" action="change or delete collections">
        <section class="danger-zone" aria-labelledby="delete-collection">
          <h2 id="delete-collection">Delete this collection</h2>
          <p class="muted">The images stay in the gallery; only the collection goes.</p>
          <ConfirmButton
            label="Delete collection"
            question={`Delete ${collection.name}?`}
            confirmLabel="Yes, delete it"
            busy={deleteCollection.busy}
            onConfirm={() => deleteCollection.run()}
          />
          <FormError text={deleteCollection.failure?.text} />
        </section>
      </Requires>
    </>
  );
}
