import type { TargetedMouseEvent } from 'preact';
import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { Collection } from '../../api/types.js';
import { control, Field, FormError } from '../../components/field.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { Requires } from '../../components/requires.js';
import { errorFor, formError, useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { plural } from '../../lib/format.js';
import { Link, navigate } from '../../router.js';

export function CollectionsPage() {
  const { loaded, reload } = useLoad((signal) => dataOf(api.GET('/api/collections', { params: { query: { limit: 100 } }, signal })), []);
  return (
    <>
      <PageHeading title="Collections" />
      <div class="two-columns">
        <section aria-labelledby="collections-list">
          <h2 id="collections-list">Your collections</h2>
          <Loading loaded={loaded} label="collections">
            {({ collections }) =>
              collections.length === 0 ? (
                <p class="muted">No collections yet. Create one, then add images from the gallery.</p>
              ) : (
                <ul class="list">
                  {collections.map((collection) => (
                    <li key={collection.id} class="list-item collection-item">
                      <CollectionCover collection={collection} />
                      <div>
                        <Link href={collectionHref(collection)} class="list-title">
                          {collection.name}
                        </Link>
                        <span class="muted"> · {plural(collection.image_count, 'image')}</span>
                        {collection.description !== '' && <p class="muted">{collection.description}</p>}
                      </div>
                    </li>
                  ))}
                </ul>
              )
            }
          </Loading>
        </section>
        <Requires permission="manage" action="create collections">
          <CreateCollection onCreated={reload} />
        </Requires>
      </div>
    </>
  );
}

const collectionHref = (collection: Collection) => `/collections/${encodeURIComponent(collection.id)}`;

/**
 * The image added last, small; a plain tile for an empty collection. The name beside it is the link a
 * screen reader and the keyboard use, so this copy of it is hidden from both, and only there for the mouse.
 */
function CollectionCover({ collection }: { collection: Collection }) {
  const href = collectionHref(collection);
  const onClick = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} class="collection-cover" aria-hidden="true" tabIndex={-1} onClick={onClick}>
      {collection.cover_image_url === null ? (
        <span class="collection-cover-empty" />
      ) : (
        <img src={collection.cover_image_url} alt="" width={72} height={72} loading="lazy" />
      )}
    </a>
  );
}

function CreateCollection({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<string | undefined>(undefined);
  const create = useAction(() => dataOf(api.POST('/api/collections', { body: { name, ...(description.trim() === '' ? {} : { description }) } })));
  const nameError = errorFor(create.failure, 'name');
  const descriptionError = errorFor(create.failure, 'description');
  return (
    <section aria-labelledby="create-collection" class="panel">
      <h2 id="create-collection">New collection</h2>
      <form
        class="stack"
        onSubmit={async (event) => {
          event.preventDefault();
          setCreated(undefined);
          const collection = await create.run();
          if (collection === undefined) return;
          setName('');
          setDescription('');
          setCreated(`Created ${collection.name}.`);
          onCreated();
        }}
      >
        <Field id="collection-name" label="Name" error={nameError}>
          <input
            {...control('collection-name', { error: nameError })}
            type="text"
            maxLength={100}
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </Field>
        <Field id="collection-description" label="Description" hint="Optional" error={descriptionError}>
          <textarea
            {...control('collection-description', { hint: true, error: descriptionError })}
            rows={2}
            value={description}
            onInput={(event) => setDescription(event.currentTarget.value)}
          />
        </Field>
        <div class="actions">
          <button type="submit" class="button primary" disabled={create.busy}>
            Create collection
          </button>
          <span role="status" class="inline-status">
            {created}
          </span>
        </div>
        <FormError text={formError(create.failure, ['name', 'description'])} />
      </form>
    </section>
  );
}
