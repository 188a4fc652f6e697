import { api, dataOf } from '../../api/client.js';
import type { Image } from '../../api/types.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { useLoad } from '../../hooks/use-load.js';
import { asFailure, type ApiFailure } from '../../lib/api-error.js';
import type { PageProps } from '../types.js';
import { GenerateForm } from './generate-form.js';
import { offeredModel } from './reuse-draft.js';

interface LoadedImage {
  image?: Image;
  failure?: ApiFailure;
}

/** An image that cannot be loaded (deleted since) is said so on the form; the form still works. */
const loadImage = (id: string | undefined, signal: AbortSignal): Promise<LoadedImage | undefined> =>
  id === undefined
    ? Promise.resolve(undefined)
    : dataOf(api.GET('/api/images/{id}', { params: { path: { id } }, signal })).then(
        (image): LoadedImage => ({ image }),
        (error: unknown): LoadedImage => ({ failure: asFailure(error) }),
      );

/**
 * `/generate?template=<id>` starts from a template, `/generate?image=<id>` from a gallery image to edit, and
 * `/generate?reuse=<id>` from an image's prompt, model and settings ("Reuse prompt" in its details).
 * `/generations/<id>` is the same page following that generation: where Generate goes once the job is accepted.
 */
export function GeneratePage({ params, query }: PageProps) {
  const imageId = query.get('image') ?? undefined;
  const reuseId = query.get('reuse') ?? undefined;
  const { loaded } = useLoad(
    async (signal) => {
      const [models, templates, edit, reuse] = await Promise.all([
        dataOf(api.GET('/api/models', { params: { query: { limit: 100 } }, signal })),
        dataOf(api.GET('/api/templates', { params: { query: { limit: 100 } }, signal })),
        loadImage(imageId, signal),
        loadImage(reuseId, signal),
      ]);
      return { models: models.models, templates: templates.templates, edit, reuse };
    },
    [imageId, reuseId],
  );
  return (
    <>
      <PageHeading title="Generate" />
      <Loading loaded={loaded} label="models and templates">
        {({ models, templates, edit, reuse }) => (
          <>
            {edit?.failure !== undefined && (
              <p class="form-error" role="alert">
                Could not load the image to edit. {edit.failure.text}
              </p>
            )}
            {reuse?.failure !== undefined && (
              <p class="form-error" role="alert">
                Could not load the image whose prompt to reuse. {reuse.failure.text}
              </p>
            )}
            {reuse?.image !== undefined && offeredModel(reuse.image, models) === undefined && (
              <p class="notice" role="status">
                {reuse.image.model} is no longer offered here: the prompt and settings are filled in; choose another model.
              </p>
            )}
            <GenerateForm
              key={`${imageId ?? ''} ${reuseId ?? ''}`}
              models={models}
              templates={templates}
              templateId={query.get('template') ?? undefined}
              editImage={edit?.image}
              reuseImage={reuse?.image}
              generationId={params.id}
            />
          </>
        )}
      </Loading>
    </>
  );
}
