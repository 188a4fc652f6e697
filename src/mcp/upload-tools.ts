import { decodeBase64 } from 'hono/utils/encode';
import { z } from 'zod';
import type { Deps } from '../domain/context.js';
import { invalidParameter } from '../domain/errors.js';
import { MAX_UPLOAD_BYTES } from '../domain/inputs/input-limits.js';
import { uploadImage } from '../domain/inputs/upload-image.js';
import { jsonResult, type DefineTool } from './define-tool.js';

/** Standard base64, padding optional; a data URL's prefix is taken off first. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function registerUploadTools(define: DefineTool, deps: Deps): void {
  define('upload_image', {
    title: 'Upload an image',
    description: `Puts a PNG, JPEG or WebP into the gallery, to edit or use as a reference: pass its id in image_ids (or mask_image_id) of generate_image. Send the file as base64 (a data: URL works too); files up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (${MAX_UPLOAD_BYTES} bytes before base64), as POST /api/uploads. Free; the same file sent again answers the image already stored.`,
    permissions: ['generate'],
    input: {
      data: z.string().min(1).describe('The file in base64, or a data:image/png;base64,... URL'),
      filename: z
        .string()
        .max(200)
        .optional()
        .describe('A name to remember it by, kept as its prompt, e.g. "living-room.jpg"; without one it is named by its role, type and time'),
      role: z
        .enum(['file', 'input', 'mask'])
        .optional()
        .describe(
          'file (default): listed in the gallery; input (an image to edit) or mask: left out of list_images and the gallery, still found by get_image and usable in generate_image',
        ),
    },
    run: async (args, ctx) => {
      const text = args.data.replace(/^data:[^,]*;base64,/, '').replace(/\s/g, '');
      if (!BASE64.test(text)) throw invalidParameter('data', 'data must be the file in standard base64 (A-Z, a-z, 0-9, + and /), or a data: URL');
      const image = await uploadImage({ deps, ctx, input: { bytes: decodeBase64(text), filename: args.filename, field: 'data', role: args.role } });
      return jsonResult(image);
    },
  });
}
