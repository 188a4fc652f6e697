import type { FailureKind, ProviderRequest } from '../../../ports/image-provider.js';

/*
 * What Workers AI takes and what its error codes mean, whichever way it is reached: over REST
 * (./workers-ai-provider.ts) or through a Worker's AI binding (./workers-ai-binding-provider.ts). Runtime-neutral.
 */

/** Only for an adapter used on its own; the service always passes PROVIDER_TIMEOUT_MS. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** FLUX and Lucid Origin name the step count `steps`; the Stable Diffusion family and Phoenix use `num_steps`. */
const STEPS_FIELD: Record<string, string> = {
  '@cf/black-forest-labs/flux-1-schnell': 'steps',
  '@cf/leonardo/lucid-origin': 'steps',
  '@cf/black-forest-labs/flux-2-dev': 'steps',
};

/** FLUX.2 takes multipart/form-data, "even if you just have a prompt" (Cloudflare changelog 2026-01-28). */
export const isMultipart = (model: string): boolean => model.startsWith('@cf/black-forest-labs/flux-2-');

/** The fields each model takes, by their Workers AI names, with numbers as numbers. */
export function workersAiFields(request: ProviderRequest, accepts: ReadonlySet<string>): Record<string, string | number> {
  const body: Record<string, string | number> = { prompt: request.prompt };
  if (accepts.has('negative_prompt') && request.negativePrompt !== undefined) body.negative_prompt = request.negativePrompt;
  if (accepts.has('width')) body.width = request.width;
  if (accepts.has('height')) body.height = request.height;
  if (accepts.has('seed')) body.seed = request.seed;
  if (accepts.has('guidance') && request.guidance !== undefined) body.guidance = request.guidance;
  if (accepts.has('steps') && request.steps !== undefined) body[STEPS_FIELD[request.providerModel] ?? 'num_steps'] = request.steps;
  // Set by the domain only for models whose catalogue entry takes it (Stable Diffusion 1.5 img2img and inpainting).
  if (request.strength !== undefined) body.strength = request.strength;
  return body;
}

/**
 * Workers AI's own error codes (developers.cloudflare.com/workers-ai/platform/errors, read 2026-11-23) say more
 * than the status: 3036 (429) is the daily free allocation used up and 3023 an account blocked, the operator's to
 * fix; 3007 and 3008 (408) are timeouts and 3040 (429) no capacity, worth another try; 5007 and 3042 name a model
 * Workers AI does not know, a catalogue or settings problem.
 */
export const ACCOUNT_CODES: ReadonlySet<number> = new Set([3036, 3023, 3041, 5016, 5018, 5007, 3042]);
/** The retryable codes with the HTTP status that table gives them (the binding reports the code alone). */
export const RETRY_STATUS: ReadonlyMap<number, number> = new Map([
  [3007, 408],
  [3008, 408],
  [3040, 429],
]);
export const RETRY_CODES: ReadonlySet<number> = new Set(RETRY_STATUS.keys());

/** What a failure's Workers AI codes make it, or undefined when none of them is known to mean more than the status. */
export function kindOfCodes(codes: readonly number[]): FailureKind | undefined {
  if (codes.some((code) => ACCOUNT_CODES.has(code))) return 'account';
  if (codes.some((code) => RETRY_CODES.has(code))) return 'unavailable';
  return undefined;
}

/**
 * Codes that reject the request itself, so nothing was made: the errors table's 400, 405 and 413 rows that are not
 * account codes, and 3030, Workers AI's content filter ("AiError: Input prompt contains NSFW content (code 3030)",
 * reported on community.cloudflare.com/t/image-rendering-issue-with-flux-api-nsfw-warning/729440; not in the table).
 * Over REST the status says as much; the binding reports only the code, so it needs them listed.
 */
export const REFUSAL_CODES: ReadonlySet<number> = new Set([5004, 3039, 3003, 5019, 5005, 3006, 3030]);
