import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { Batch } from '../../api/types.js';
import { BatchProgress, isRunning } from '../../components/batch-progress.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { Requires } from '../../components/requires.js';
import { WebhookSecret } from '../../components/webhook-secret.js';
import { useLoad } from '../../hooks/use-load.js';
import { usePolling } from '../../hooks/use-polling.js';
import { formatDateTime } from '../../lib/format.js';
import { Link } from '../../router.js';
import { BatchForm } from './batch-form.js';
import { batchItemId, useRevealStarted } from './started-batch.js';

const latestBatches = (signal?: AbortSignal) => dataOf(api.GET('/api/batch', { params: { query: { limit: 50 } }, signal }));

export function BatchesPage() {
  const options = useLoad(async (signal) => {
    const [models, templates] = await Promise.all([
      dataOf(api.GET('/api/models', { params: { query: { limit: 100 } }, signal })),
      dataOf(api.GET('/api/templates', { params: { query: { limit: 100 } }, signal })),
    ]);
    return { models: models.models, templates: templates.templates };
  }, []);
  const batches = useLoad(latestBatches, []);
  const list = batches.loaded.state === 'ready' ? batches.loaded.value.batches : [];
  // Progress is polled while anything is still running; it stops by itself when all are done.
  usePolling(list.some(isRunning), async () => batches.set(await latestBatches()));
  // The batch just started: shown first at once (the list is read again behind it), scrolled to and marked.
  const [startedId, setStartedId] = useState<string | undefined>(undefined);
  useRevealStarted(
    startedId,
    list.some((batch) => batch.id === startedId),
  );
  const onStarted = (batch: Batch) => {
    setStartedId(batch.id);
    if (batches.loaded.state === 'ready') batches.set({ ...batches.loaded.value, batches: [batch, ...list.filter((b) => b.id !== batch.id)] });
    batches.reload();
  };

  return (
    <>
      <PageHeading title="Batches" />
      <div class="two-columns">
        <section aria-labelledby="batch-list">
          <h2 id="batch-list">Your batches</h2>
          <Loading loaded={batches.loaded} label="batches">
            {({ batches: items }) =>
              items.length === 0 ? (
                <p class="muted">No batches yet.</p>
              ) : (
                <ul class="list">
                  {items.map((batch) => (
                    <li key={batch.id} id={batchItemId(batch.id)} class={batch.id === startedId ? 'list-item just-started' : 'list-item'}>
                      <Link href={`/batches/${encodeURIComponent(batch.id)}`} class="list-title">
                        {batch.name}
                      </Link>
                      {batch.id === startedId && <span class="started-mark">Just started</span>}
                      <p class="muted">
                        {batch.model} · {formatDateTime(batch.created_at)}
                      </p>
                      <BatchProgress batch={batch} />
                    </li>
                  ))}
                </ul>
              )
            }
          </Loading>
        </section>
        <div>
          <section aria-labelledby="new-batch" class="panel">
            <h2 id="new-batch">New batch</h2>
            <Loading loaded={options.loaded} label="models and templates">
              {({ models, templates }) => (
                <Requires permission="generate" action="start batches">
                  <BatchForm models={models} templates={templates} onStarted={onStarted} />
                </Requires>
              )}
            </Loading>
          </section>
          <WebhookSecret />
        </div>
      </div>
    </>
  );
}
