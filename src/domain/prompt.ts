import { ApiError } from './errors.js';
import { textProblem } from './json-shape.js';

export const PROMPT_MIN = 3;
export const PROMPT_MAX = 4000;

/** The spec's prompt rule, measured after trimming; returns the trimmed prompt. */
export function checkPrompt(raw: string | undefined): string {
  const fail = (message: string) => new ApiError('INVALID_PARAMETER', 'Invalid prompt', { field: 'prompt', message });
  if (raw === undefined) throw fail('prompt is required unless template_id is given');
  // Every prompt of a batch passes here, not only the one planGeneration sees: each must be storable.
  const problem = textProblem(raw);
  if (problem !== undefined) throw fail(`prompt ${problem}`);
  const prompt = raw.trim();
  if (prompt.length < PROMPT_MIN) throw fail(`prompt must be at least ${PROMPT_MIN} characters`);
  if (prompt.length > PROMPT_MAX) throw fail(`prompt must be at most ${PROMPT_MAX} characters`);
  return prompt;
}
