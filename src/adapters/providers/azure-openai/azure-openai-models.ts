import type { ModelDefinition } from '../../../domain/models/types.js';
import { openAiModels } from '../openai/openai-models.js';
import { AZURE_IMAGE_MODELS, type AzureImageModel } from './azure-openai-deployments.js';

/*
 * OpenAI's image models as an Azure OpenAI resource serves them, each through a deployment the operator made and
 * named in AZURE_OPENAI_DEPLOYMENTS. Sources, read 2026-11-27:
 *
 * - Calls, fields and answers: "Azure OpenAI image generation models" (learn.microsoft.com/azure/ai-foundry/openai/how-to/dall-e;
 *   MicrosoftDocs/azure-ai-docs articles/foundry/openai/how-to/dall-e.md, ms.date 2025-11-21): generations and edits
 *   at `/openai/deployments/{deployment}/images/{generations|edits}?api-version=2025-04-01-preview` with an `api-key`
 *   header; GPT image models answer base64 only; sizes 1024x1024, 1024x1536, 1536x1024 for the gpt-image-1 series;
 *   quality low/medium/high; `stream` with `partial_images` 1-3; edits multipart with `image[]`, `mask` (fully
 *   transparent = edit, the first image's size) and `input_fidelity` (not on gpt-image-1-mini).
 * - The latest preview inference reference (learn.microsoft.com/azure/ai-foundry/openai/reference-preview, ms.date
 *   2026-05-14): the same two operations at 2025-04-01-preview, `partial_images` and `stream` on both, the answer's
 *   `usage` (input/output tokens, text/image details) for the gpt-image-1 series, errors as `dalleErrorResponse`.
 * - gpt-image-2 on Azure (ai.azure.com/catalog/models/gpt-image-2, version 2026-04-21): any size with both edges
 *   multiples of 16, at most 3840 px, at most 3:1, 655,360 to 8,294,400 pixels: OpenAI's own limits, so the entry
 *   below takes them from ../openai/openai-models.ts. How many images one Azure edit takes is not stated there;
 *   OpenAI's 16 is assumed (Azure runs OpenAI's model).
 * - Lifecycle: "Model retirement schedule" (learn.microsoft.com/azure/ai-foundry/openai/concepts/model-retirement-schedule,
 *   ms.date 2026-08-26): gpt-image-1 (2025-04-15, preview) retires 2026-10-23, gpt-image-1-mini (2025-10-06)
 *   2027-04-07, gpt-image-1.5 (2025-12-16) 2026-12-16, gpt-image-2 (2026-04-21, GA) 2027-04-21. The earlier
 *   retirement table (articles/foundry/openai/includes/retirement/models.md) gives dall-e-3's retirement,
 *   2026-03-04 (replacement gpt-image-1.5), and gpt-image-1-mini's deprecation (no new customers) on 2026-10-06.
 *   gpt-image-2's date is in the description only: a catalogue entry with a shutdown day must name a replacement,
 *   and there is none yet. Replacements name azure-openai/gpt-image-2 (Azure named gpt-image-1.5, which retires
 *   first), and only when that model is mapped too, so a replacement is always a model the catalogue lists.
 * - Prices: Azure's pricing page (azure.microsoft.com/pricing/details/cognitive-services/openai-service/) was not
 *   among the stored sources, so Azure's own figures could NOT be confirmed. The figures are OpenAI's list prices
 *   for the same models (Azure's Global Standard deployments are commonly priced as OpenAI's; unconfirmed here): gpt-image-2's token rates,
 *   gpt-image-1.5's and gpt-image-1's per-image prices as in ../openai/openai-models.ts; gpt-image-1-mini at medium
 *   $0.011 for 1024x1024 from OpenAI's table as copied by aifreeapi.com (posts/gpt-image-1-5-pricing, 2026-03-23),
 *   and $0.015 for 1536x1024 and 1024x1536, OpenAI's figure, which no stored source confirmed. A Data Zone or
 *   Regional deployment costs more at Azure: the recorded cost would then be low.
 *
 * As for OpenAI: gpt-image-2 is priced by the tokens Azure reports in `usage`; the fixed-size models at `medium`
 * (the adapter's default, and the only quality they offer here), without input images.
 */

const PRICING = 'https://azure.microsoft.com/pricing/details/cognitive-services/openai-service/';
const THREE_SIZES = ['1024x1024', '1536x1024', '1024x1536'];

/**
 * What OpenAI's catalogue says of one of its models (sizes, limits, inputs, outputs, token rates): Azure serves the
 * same model, so its entry starts from OpenAI's rather than repeating it.
 */
function openAiCapabilities(model: string): Omit<ModelDefinition, 'id' | 'name' | 'provider' | 'provider_model' | 'description' | 'replacement'> {
  const definition = openAiModels.find((entry) => entry.provider_model === model);
  if (definition === undefined) throw new Error(`OpenAI's catalogue has no ${model}, which the Azure OpenAI entry builds on`);
  const {
    id: _id,
    name: _name,
    provider: _provider,
    provider_model: _model,
    description: _description,
    replacement: _replacement,
    ...capabilities
  } = definition;
  return capabilities;
}

/** What each model is, before it is tied to a deployment. */
type Base = Omit<ModelDefinition, 'id' | 'provider' | 'provider_model' | 'description' | 'replacement'> & {
  description: string;
  replacement?: AzureImageModel;
};

const fixedSize = (name: string, description: string, prices: [number, number], dates: Partial<Base>): Base => ({
  name,
  description,
  speed: 'slow',
  quality: 'high',
  typical_seconds: 30,
  default_width: 1024,
  default_height: 1024,
  min_size: 1024,
  max_width: 1536,
  max_height: 1536,
  sizes: THREE_SIZES,
  parameters: ['width', 'height'],
  pricing: { kind: 'by_size', prices: { '1024x1024': prices[0], '1536x1024': prices[1], '1024x1536': prices[1] }, default_usd: prices[1] },
  pricing_source: PRICING,
  replacement: 'gpt-image-2',
  ...dates,
});

const BASES: Readonly<Record<AzureImageModel, Base>> = {
  'gpt-image-2': {
    ...openAiCapabilities('gpt-image-2'),
    name: 'GPT Image 2 on Azure OpenAI',
    description:
      "OpenAI's current image model on your Azure OpenAI resource: any size in steps of 16 up to 3840 px and 3:1, low to high quality, edits of up to 16 images with an optional mask; billed in tokens. Azure retires it no earlier than 2027-04-21.",
    pricing_source: PRICING,
  },
  'gpt-image-1.5': fixedSize(
    'GPT Image 1.5 on Azure OpenAI',
    'The previous GPT image model at medium quality on your Azure OpenAI resource; square, portrait or landscape only. Retired by Azure on 2026-12-16.',
    [0.034, 0.05],
    { shutdown_at: '2026-12-16' },
  ),
  'gpt-image-1-mini': fixedSize(
    'GPT Image 1 mini on Azure OpenAI',
    'The low-cost GPT image model at medium quality on your Azure OpenAI resource; square, portrait or landscape only. Closed to new Azure customers since 2026-10-06, retired on 2027-04-07.',
    [0.011, 0.015],
    { deprecated_at: '2026-10-06', shutdown_at: '2027-04-07' },
  ),
  'gpt-image-1': fixedSize(
    'GPT Image 1 on Azure OpenAI',
    "OpenAI's first GPT image model (medium quality) on Azure OpenAI. Retired by Azure on 2026-10-23.",
    [0.042, 0.063],
    { shutdown_at: '2026-10-23' },
  ),
  'dall-e-3': {
    ...fixedSize('DALL-E 3 on Azure OpenAI', "OpenAI's DALL-E 3 at standard quality on Azure OpenAI. Retired by Azure on 2026-03-04.", [0.04, 0.08], {
      shutdown_at: '2026-03-04',
    }),
    speed: 'medium',
    quality: 'standard',
    typical_seconds: 12,
    max_width: 1792,
    max_height: 1792,
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    pricing: { kind: 'by_size', prices: { '1024x1024': 0.04, '1792x1024': 0.08, '1024x1792': 0.08 }, default_usd: 0.08 },
  },
};

/**
 * One entry per mapped model, each naming the deployment that serves it; with nothing mapped, every model, each
 * saying how to map it, so GET /api/models shows what AZURE_OPENAI_DEPLOYMENTS would enable.
 */
export function azureOpenAiModels(deployments: ReadonlyMap<AzureImageModel, string>): ModelDefinition[] {
  const listed = AZURE_IMAGE_MODELS.filter((model) => deployments.size === 0 || deployments.has(model));
  return listed.map((model): ModelDefinition => {
    const { description, replacement, ...base } = BASES[model];
    const deployment = deployments.get(model);
    const how =
      deployment === undefined
        ? ` Map it to one of your deployments in AZURE_OPENAI_DEPLOYMENTS (${model}=<deployment>) to use it.`
        : ` Served by your deployment "${deployment}".`;
    return {
      ...base,
      id: `azure-openai/${model}`,
      provider: 'azure-openai',
      provider_model: model,
      description: description + how,
      ...(replacement !== undefined && listed.includes(replacement) ? { replacement: `azure-openai/${replacement}` } : {}),
    };
  });
}
