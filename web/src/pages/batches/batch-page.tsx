import type { TargetedMouseEvent } from 'preact';
import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import { isDeleted, scheduleDelete, useDeletes } from '../../api/pending-deletes.js';
import type { BatchDetail, BatchItem } from '../../api/types.js';
import { BatchProgress, isRunning } from '../../components/batch-progress.js';
import { FormError } from '../../components/field.js';
import { ImageGrid } from '../../components/image-grid.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { usePolling } from '../../hooks/use-polling.js';
import { formatDateTime } from '../../lib/format.js';
import { Link } from '../../router.js';
import { deleteLabel, stepsThrough } from '../gallery/dialog-steps.js';
import { ImageDialog } from '../gallery/image-dialog.js';
import type { PageProps } from '../types.js';
import { BatchItems } from './batch-items.js';
import { WebhookDeliveries } from './webhook-deliveries.js';

export function BatchPage({ params }: PageProps) {
  const id = params.id ?? '';
  const read = (signal?: AbortSignal): Promise<BatchDetail> => dataOf(api.GET('/api/batch/{id}', { params: { path: { id } }, signal }));
  const { loaded, set } = useLoad(read, [id]);
  const batch = loaded.state === 'ready' ? loaded.value : undefined;
  const deliveriesPending = batch?.webhook.deliveries.some((delivery) => delivery.status === 'pending') === true;
  const refresh = async () => set(await read());
  // Polled until every prompt is done and the webhook has its answer; less often where the prompts' own
  // generations are followed live (BatchItems), which read the batch again as each one ends.
  const followsGenerations = batch?.items.some((item: BatchItem) => typeof item.generation_id === 'string') === true;
  usePolling(batch !== undefined && (isRunning(batch) || deliveriesPending), refresh, followsGenerations ? 5000 : 1500);
  const cancel = useAction(async () => {
    await dataOf(api.POST('/api/batch/{id}/cancel', { params: { path: { id } } }));
    set(await read());
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
              <BatchItems items={detail.items} open={isRunning(detail)} onSettled={() => void refresh().catch(() => undefined)} onOpen={openFrom} />
            </div>
          </section>
          <section aria-labelledby="batch-images">
            <h2 id="batch-images">Images</h2>
            {images.length === 0 ? (
              <p class="muted">None yet.</p>
            ) : (
              <ImageGrid images={images} label={`Images of ${detail.name}`} onOpen={(image) => setOpenId(image.id)} />
            )}
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
