import { z } from 'zod';
import { optionalSetting } from '../provider-settings.js';

/*
 * AZURE_OPENAI_DEPLOYMENTS says which deployment of the operator's Azure OpenAI resource serves which OpenAI image
 * model: Azure routes a call by deployment name (`/openai/deployments/{deployment-id}/...`), a name the operator
 * chose when deploying, so imagegate cannot guess it. Format: `<model>=<deployment>` pairs separated by commas, e.g.
 * `gpt-image-2=images-prod,gpt-image-1-mini=cheap-images`; spaces around either side are ignored.
 */

/** The OpenAI image models Azure OpenAI has offered (the models file has an entry for each). */
export const AZURE_IMAGE_MODELS = ['gpt-image-2', 'gpt-image-1.5', 'gpt-image-1-mini', 'gpt-image-1', 'dall-e-3'] as const;
export type AzureImageModel = (typeof AZURE_IMAGE_MODELS)[number];

const isImageModel = (name: string): name is AzureImageModel => (AZURE_IMAGE_MODELS as readonly string[]).includes(name);

/**
 * Azure's rule for a deployment name (the Foundry portal and `az cognitiveservices account deployment create`):
 * letters, digits, `-`, `_` and `.`, at most 64 characters. Checked here so a typo with a slash or a space stops
 * start-up instead of reaching a URL.
 */
const DEPLOYMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const EXAMPLE = 'e.g. gpt-image-2=my-image-deployment,gpt-image-1-mini=my-mini-deployment';

/** Model to deployment, in the order given; or the reason the text is not a mapping, in words naming the fault. */
export function parseDeployments(text: string): { deployments: ReadonlyMap<AzureImageModel, string> } | { error: string } {
  const deployments = new Map<AzureImageModel, string>();
  for (const pair of text.split(',')) {
    const entry = pair.trim();
    if (entry === '') continue;
    const at = entry.indexOf('=');
    if (at < 0) return { error: `"${entry}" is not <model>=<deployment> (${EXAMPLE})` };
    const model = entry.slice(0, at).trim();
    const deployment = entry.slice(at + 1).trim();
    if (!isImageModel(model)) return { error: `"${model}" is not an Azure OpenAI image model; use one of ${AZURE_IMAGE_MODELS.join(', ')}` };
    if (!DEPLOYMENT_NAME.test(deployment)) {
      return { error: `"${deployment}" (for ${model}) is not a deployment name: letters, digits, "-", "_" and "." only, at most 64 characters` };
    }
    if (deployments.has(model)) return { error: `${model} is mapped twice; give each model one deployment` };
    deployments.set(model, deployment);
  }
  if (deployments.size === 0) return { error: `names no deployment (${EXAMPLE})` };
  return { deployments };
}

/** The mapping of a value the setting already accepted (start-up refuses any other). */
export function deploymentsOf(text: string | undefined): ReadonlyMap<AzureImageModel, string> {
  if (text === undefined) return new Map();
  const parsed = parseDeployments(text);
  return 'deployments' in parsed ? parsed.deployments : new Map();
}

/** AZURE_OPENAI_DEPLOYMENTS: optional; when set, a mapping, or start-up stops with a line naming the variable. */
export const deploymentsSetting = optionalSetting.superRefine((text, ctx) => {
  if (text === undefined) return;
  const parsed = parseDeployments(text);
  if ('error' in parsed) ctx.addIssue({ code: 'custom', message: `must map image models to your deployments: ${parsed.error}` });
});

/**
 * AZURE_OPENAI_API_VERSION: a dated Azure OpenAI api-version (`YYYY-MM-DD` or `YYYY-MM-DD-preview`). The default
 * is the one Azure's image reference documents for gpt-image generations and edits (see azure-openai-models.ts).
 */
export const DEFAULT_API_VERSION = '2025-04-01-preview';
export const apiVersionSetting = optionalSetting
  .pipe(
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}(-preview)?$/, `must be a dated Azure OpenAI api-version such as ${DEFAULT_API_VERSION}`)
      .optional(),
  )
  .transform((version) => version ?? DEFAULT_API_VERSION);
