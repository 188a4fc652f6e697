import type { TargetedMouseEvent } from 'preact';
import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import { isDeleted, scheduleDelete, useDeletes } from '../../api/pending-deletes.js';
import type { BatchDetail } from '../../api/types.js';
import { BatchProgress, isRunning } from '../../components/batch-progress.js';
import { FormError } from '../../components/field.js';
import { ImageGrid } from '../../components/image-grid.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { usePolling } from '../../hooks/use-polling.js';
import { formatDateTime } from '../../lib/format.js';
import { Link } from '../../router.js';
import { detailsHref } from '../gallery/details-address.js';
import { deleteLabel, stepsThrough } from '../gallery/dialog-steps.js';
import { ImageDialog } from '../gallery/image-dialog.js';
import type { PageProps } from '../types.js';
import { WebhookDeliveries } from './webhook-deliveries.js';

export function BatchPage({ params }: PageProps) {
  const path = `/api/batch/${segment(params.id ?? '')}`;
  const { loaded, set } = useLoad((signal) => api.get<BatchDetail>(path, { signal }), [path]);
  const batch = loaded.state === 'ready' ? loaded.value : undefined;
  const deliveriesPending = batch?.webhook.deliveries.some((delivery) => delivery.status === 'pending') === true;
  // Polled until every prompt is done and the webhook has its answer.
  usePolling(batch !== undefined && (isRunning(batch) || deliveriesPending), async () => set(await api.get<BatchDetail>(path)));
  const cancel = useAction(async () => {
    await api.post(`${path}/cancel`);
    set(await api.get<BatchDetail>(path));
  });
  // A picture (or a row's "Image" link) opens its details here, on top of the batch.
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  useDeletes();
  const images = batch?.images.filter((image) => !isDeleted(image.id)) ?? [];
  const openFrom = (id: string) => (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setOpenId(id);
  };

  return (
    <Loading loaded={loaded} label="the batch">
      {(detail) => (
        <>
          <PageHeading title={detail.name}>
            <p class="muted">
              {detail.model} · started {formatDateTime(detail.created_at)}
              {detail.finished_at === null ? '' : ` · finished ${formatDateTime(detail.finished_at)}`} · <Link href="/batches">All batches</Link>
            </p>
          </PageHeading>
          <div class="batch-summary">
            <BatchProgress batch={detail} />
            {isRunning(detail) && (
              <button type="button" class="button danger-outline" disabled={cancel.busy} onClick={() => void cancel.run()}>
                Cancel batch
              </button>
            )}
          </div>
          <FormError text={cancel.failure?.text} />
          <section aria-labelledby="batch-prompts">
            <h2 id="batch-prompts">Prompts</h2>
            <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="batch-prompts">
              <table>
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Prompt</th>
                    <th scope="col">State</th>
                    <th scope="col">Result</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.items.map((item) => (
                    <tr key={item.index}>
                      <td>{item.index + 1}</td>
                      <td>{item.prompt}</td>
                      <td>
                        <StatusBadge status={item.status} />
                      </td>
                      <td>
                        {item.image !== null ? (
                          <a href={detailsHref(item.image.id)} aria-label={`Image of ${item.prompt}`} onClick={openFrom(item.image.id)}>
                            Image
                          </a>
                        ) : (
                          (item.error ?? '')
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          <section aria-labelledby="batch-images">
            <h2 id="batch-images">Images</h2>
            {images.length === 0 ? <p class="muted">None yet.</p> : <ImageGrid images={images} label={`Images of ${detail.name}`} onOpen={(image) => setOpenId(image.id)} />}
          </section>
          <WebhookDeliveries url={detail.webhook_url} deliveries={detail.webhook.deliveries} />
          {openId !== undefined && (
            <ImageDialog
              id={openId}
              preview={undefined}
              onClose={() => setOpenId(undefined)}
              onOpen={setOpenId}
              onDelete={(image) => scheduleDelete([image.id], deleteLabel(image))}
              steps={stepsThrough(images, openId, setOpenId)}
            />
          )}
        </>
      )}
    </Loading>
  );
}
