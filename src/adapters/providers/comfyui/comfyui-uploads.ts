import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { clip, failOnHttpError, readBody, stringAt, type ReadBody } from '../http-support.js';
import type { ComfyWorkflow } from './workflows.js';

/** The names ComfyUI gave the uploaded files, as its LoadImage and LoadImageMask nodes load them. */
export interface UploadedInputs {
  images: readonly string[];
  mask?: string;
}

export const NO_UPLOADS: UploadedInputs = { images: [] };

/**
 * Refuses, before anything reaches the server, a request the workflow cannot run as mapped: every mapped LoadImage
 * needs an image (one left alone would load whatever file the workflow was saved with), a mapped mask needs a mask,
 * and nothing is given that no node would take.
 */
export function checkInputs(workflow: ComfyWorkflow, request: ProviderRequest): void {
  const wanted = workflow.nodes.images?.length ?? 0;
  const given = request.images?.length ?? 0;
  if (given !== wanted) {
    const takes = wanted === 0 ? 'takes no input images' : `takes ${wanted} input image${wanted === 1 ? '' : 's'}`;
    throw new ProviderRefusal(`ComfyUI workflow ${workflow.id} ${takes}, given ${given}`);
  }
  if ((workflow.nodes.mask === undefined) !== (request.mask === undefined)) {
    throw new ProviderRefusal(`ComfyUI workflow ${workflow.id} ${workflow.nodes.mask === undefined ? 'takes no mask' : 'inpaints from a mask: give one'}`);
  }
}

const describeError = ({ json, text }: ReadBody): string | undefined => stringAt(json.error) ?? (text === '' ? undefined : clip(text));

/**
 * Uploads the request's images, then its mask, as ComfyUI's own front end does: `POST /upload/image` with the
 * multipart fields server.py reads (`image`, the file with its name; `type=input`; `overwrite`). Each file is
 * named after the prompt, so concurrent calls never load each other's images; `overwrite=true` makes a retry of
 * the same prompt replace its identical file instead of leaving numbered copies. The masks need no conversion:
 * see comfyui-models.ts.
 */
export async function uploadInputs(
  doFetch: typeof fetch,
  base: string,
  request: ProviderRequest,
  promptId: string,
  signal?: AbortSignal,
): Promise<UploadedInputs> {
  const upload = async (image: InputImage): Promise<string> => {
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), `imagegate-${promptId}-${image.filename}`);
    form.set('type', 'input');
    form.set('overwrite', 'true');
    const response = await doFetch(`${base}/upload/image`, { method: 'POST', body: form, signal });
    await failOnHttpError('ComfyUI', response, describeError);
    const answer = (await readBody(response)).json;
    const name = stringAt(answer.name);
    if (name === undefined) throw new Error(`ComfyUI answered the upload of ${image.filename} without a file name`);
    // folder_paths.get_annotated_filepath joins the node's value under input/, so a subfolder goes in front.
    const subfolder = stringAt(answer.subfolder);
    return subfolder === undefined ? name : `${subfolder}/${name}`;
  };
  const images: string[] = [];
  for (const image of request.images ?? []) images.push(await upload(image));
  return request.mask === undefined ? { images } : { images, mask: await upload(request.mask) };
}
