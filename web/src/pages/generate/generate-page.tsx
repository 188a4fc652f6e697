import { api, segment } from '../../api/client.js';
import type { Image, Model, Template } from '../../api/types.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { useLoad } from '../../hooks/use-load.js';
import { asFailure, type ApiFailure } from '../../lib/api-error.js';
import type { PageProps } from '../types.js';
import { GenerateForm } from './generate-form.js';

interface EditImage {
  image?: Image;
  failure?: ApiFailure;
}

/** `/generate?template=<id>` starts from a template, `/generate?image=<id>` from a gallery image to edit. */
export function GeneratePage({ query }: PageProps) {
  const imageId = query.get('image') ?? undefined;
  const { loaded } = useLoad(
    async (signal) => {
      const [models, templates, edit] = await Promise.all([
        api.get<{ models: Model[] }>('/api/models?limit=100', { signal }),
        api.get<{ templates: Template[] }>('/api/templates?limit=100', { signal }),
        // An image that cannot be loaded (deleted since) is said so on the form; the form still works.
        imageId === undefined
          ? undefined
          : api.get<Image>(`/api/images/${segment(imageId)}`, { signal }).then(
              (image): EditImage => ({ image }),
              (error: unknown): EditImage => ({ failure: asFailure(error) }),
            ),
      ]);
      return { models: models.models, templates: templates.templates, edit };
    },
    [imageId],
  );
  return (
    <>
      <PageHeading title="Generate" />
      <Loading loaded={loaded} label="models and templates">
        {({ models, templates, edit }) => (
          <>
            {edit?.failure !== undefined && (
              <p class="form-error" role="alert">
                Could not load the image to edit. {edit.failure.text}
              </p>
            )}
            <GenerateForm key={imageId ?? ''} models={models} templates={templates} templateId={query.get('template') ?? undefined} editImage={edit?.image} />
          </>
        )}
      </Loading>
    </>
  );
}
