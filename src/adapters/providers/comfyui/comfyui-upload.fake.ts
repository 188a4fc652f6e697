import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { formOf, sendBytes, sendJson, type RecordedRequest } from '../../../test-support/loopback-server.js';

/*
 * ComfyUI's `POST /upload/image` and the check its LoadImage and LoadImageMask nodes make of the file they name,
 * as Comfy-Org/ComfyUI at a125cd84 has them: server.py image_upload (multipart fields `image`, `type`, `subfolder`,
 * `overwrite`; 400 without a file or a name; a name already taken gets " (1)", " (2)"... unless `overwrite` is
 * "true" or "1", or the file is byte-for-byte the same; answers { name, subfolder, type }), nodes.py
 * VALIDATE_INPUTS ("Invalid image file: ...") and execution.py's `custom_validation_failed` node error.
 */

export interface UploadedFile {
  bytes: Buffer;
  contentType: string;
}

/** The files in the fake server's input folder, by the path a LoadImage node names (`subfolder/name`). */
export type InputFolder = Map<string, UploadedFile>;

/** ComfyUI ships input/example.png, which the saved workflows name until a caller's image replaces it. */
export const SHIPPED_INPUT = 'example.png';

export async function handleUpload(request: RecordedRequest, response: ServerResponse, folder: InputFolder, maxBytes = 100 * 1024 * 1024): Promise<void> {
  // aiohttp's client_max_size, which server.py sets from --max-upload-size, refuses a larger body with a 413.
  if (request.raw.length > maxBytes) {
    return sendBytes(response, 413, 'text/plain', Buffer.from(`Maximum request body size ${maxBytes} exceeded, actual body size ${request.raw.length}`));
  }
  const form = await formOf(request);
  const image = form.get('image');
  if (!(image instanceof File) || image.name === '') return sendBytes(response, 400, 'text/plain', Buffer.alloc(0));
  const type = String(form.get('type') ?? 'input');
  const subfolder = String(form.get('subfolder') ?? '');
  const overwrite = form.get('overwrite');
  const bytes = Buffer.from(await image.arrayBuffer());
  const at = (name: string) => (subfolder === '' ? name : `${subfolder}/${name}`);
  const { name: stem, ext } = path.parse(image.name);
  let name = image.name;
  if (overwrite !== 'true' && overwrite !== '1') {
    for (let i = 1; folder.has(at(name)) && !folder.get(at(name))?.bytes.equals(bytes); i += 1) name = `${stem} (${i})${ext}`;
  }
  folder.set(at(name), { bytes, contentType: image.type });
  sendJson(response, 200, { name, subfolder, type });
}

/** The `custom_validation_failed` errors of image loaders naming a file the input folder lacks. */
export function missingInputs(
  graph: Record<string, { class_type: string; inputs: Record<string, unknown> }>,
  folder: InputFolder,
): Record<string, unknown> | undefined {
  for (const [id, node] of Object.entries(graph)) {
    if (node.class_type !== 'LoadImage' && node.class_type !== 'LoadImageMask') continue;
    const file = String(node.inputs.image);
    if (file === SHIPPED_INPUT || folder.has(file)) continue;
    return {
      error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} },
      node_errors: {
        [id]: {
          errors: [
            {
              type: 'custom_validation_failed',
              message: 'Custom validation failed for node',
              details: `image - Invalid image file: ${file}`,
              extra_info: { input_name: 'image' },
            },
          ],
          dependent_outputs: ['9'],
          class_type: node.class_type,
        },
      },
    };
  }
  return undefined;
}
