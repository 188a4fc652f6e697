import type { ProviderRequest } from '../../../ports/image-provider.js';
import { sizeMenuOf } from './google-models.js';
import { imageConfigFor } from './google-sizes.js';

/*
 * The body of `POST /v1beta/models/{model}:generateContent` as googleapis/js-genai sends it to the Gemini API
 * (src/converters/_models_converters.ts at 6e9b35c, 2026-08-21: generateContentParametersToMldev puts `contents` as
 * given and the config under `generationConfig`; imageConfigToMldev keeps `aspectRatio` and `imageSize`; Part.inlineData
 * is a Blob of `mimeType` and base64 `data`, src/types.ts). As Google's image-generation guide shows an edit, the prompt
 * comes first and the images after it, in the caller's order; Gemini has no image "being edited", the prompt says
 * what to do with each. `responseModalities: ['IMAGE']` asks for an image alone (the guide's "image-only" output).
 */

interface TextPart {
  text: string;
}

interface InlineDataPart {
  inlineData: { mimeType: string; data: string };
}

export interface GenerateContentBody {
  contents: [{ role: 'user'; parts: (TextPart | InlineDataPart)[] }];
  generationConfig: {
    responseModalities: ['IMAGE'];
    imageConfig: { aspectRatio: string; imageSize?: string };
  };
}

/** The request for one image, its size as the model's `imageConfig` (see google-sizes.ts). */
export function generateContentBody(request: ProviderRequest): GenerateContentBody {
  const images = (request.images ?? []).map((image): InlineDataPart => ({
    inlineData: { mimeType: image.contentType, data: Buffer.from(image.bytes).toString('base64') },
  }));
  return {
    contents: [{ role: 'user', parts: [{ text: request.prompt }, ...images] }],
    generationConfig: {
      responseModalities: ['IMAGE'],
      imageConfig: imageConfigFor(sizeMenuOf(request.providerModel), request.width, request.height),
    },
  };
}
