import type { GenerationRow, GenerationWebhookEvent, NewGenerationRow } from '../../ports/database.js';
import { DependencyUnavailable } from '../../ports/dependency-unavailable.js';
import type { VerbArgs } from '../context.js';
import { ApiError, dependencyUnavailable, invalidParameter } from '../errors.js';
import { planGeneration, type GenerationRequest } from '../images/plan-generation.js';
import { enqueueJob } from '../jobs.js';
import { endGeneration } from './end-generation.js';
import { failureOf } from './generation-failure.js';
import { generationJob } from './generation-job.js';
import { publish } from './generation-record.js';
import { DEFAULT_GENERATION_EVENTS } from '../webhooks/generation-event.js';
import { checkWebhookUrl } from '../webhooks/webhook-url.js';

export interface AcceptGenerationInput extends GenerationRequest {
  /** Receives the generation's events, signed as a batch's are. */
  webhook_url?: string;
  /** Which events; DEFAULT_GENERATION_EVENTS when not given. */
  webhook_events?: GenerationWebhookEvent[];
  /** Still queued this many seconds after acceptance, it is cancelled without running (a running one goes on). */
  deadline_seconds?: number;
}

/** Longest deadline: a day, far beyond any queue a caller would wait on. */
export const MAX_DEADLINE_SECONDS = 86_400;

/**
 * Accepts a generation as a durable job: the request is checked in full first (every refusal a caller can fix is
 * answered now, before anything is stored), then recorded with its seed fixed and the image id it will own, then
 * queued. From here it runs to its end whoever is still connected: a caller who hangs up never stops a provider call.
 */
export async function acceptGeneration({ deps, ctx, input }: VerbArgs<AcceptGenerationInput>): Promise<GenerationRow> {
  // The webhook and the deadline are the job's, not the picture's: the worker's plan never sees them.
  const { webhook_url: webhookUrl, webhook_events: webhookEvents, deadline_seconds: deadlineSeconds, ...asked } = input;
  if (webhookEvents !== undefined && webhookUrl === undefined) throw invalidParameter('webhook_events', 'webhook_events needs a webhook_url to send them to');
  if (deadlineSeconds !== undefined && (!Number.isInteger(deadlineSeconds) || deadlineSeconds < 1 || deadlineSeconds > MAX_DEADLINE_SECONDS)) {
    throw invalidParameter('deadline_seconds', `deadline_seconds must be a whole number from 1 to ${MAX_DEADLINE_SECONDS}`);
  }
  const plan = await planGeneration(deps, ctx.userId, asked);
  if (webhookUrl !== undefined) await checkWebhookUrl(deps, webhookUrl);
  // The worker plans again from this request: the same seed, so the same picture as a synchronous call would make.
  const seed = plan.settings.parameters.seed;
  const request: GenerationRequest = asked.seed === undefined && seed !== undefined ? { ...asked, seed } : { ...asked };
  const createdAt = deps.clock.now();
  const accepted: NewGenerationRow = {
    id: deps.ids.newId('gen'),
    user_id: ctx.userId,
    key_id: ctx.key?.id ?? null,
    status: 'queued',
    model: plan.model.id,
    prompt: plan.prompt,
    request: request as Record<string, unknown>,
    image_id: deps.ids.newId('img'),
    error: null,
    progress: null,
    created_at: createdAt.toISOString(),
    started_at: null,
    finished_at: null,
    cancel_requested_at: null,
    webhook_url: webhookUrl ?? null,
    webhook_events: webhookUrl === undefined ? null : [...new Set(webhookEvents ?? DEFAULT_GENERATION_EVENTS)],
    deadline_at: deadlineSeconds === undefined ? null : new Date(createdAt.getTime() + deadlineSeconds * 1000).toISOString(),
    batch_id: null,
    batch_idx: null,
  };
  // Ranked as it is recorded: its job's priority is its place in the fair queue.
  const row = await deps.db.generations.insert(accepted);
  await publish(deps, 'generation.queued', row.id);
  try {
    const job = generationJob(row);
    await enqueueJob(deps.queue, 'generation', job.payload, job.options);
  } catch (error) {
    // Not queued means never run: ended now (nothing was sent or charged), so the caller may safely try again.
    const refusal =
      error instanceof DependencyUnavailable
        ? dependencyUnavailable(error)
        : new ApiError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', {
            message: 'the job queue did not take the generation; nothing was sent or charged, try again',
          });
    // Its webhook hears of it too: the generation exists (GET /api/generations lists it), and it ended.
    await endGeneration(deps, row, 'failed', failureOf(refusal)).catch(() => undefined);
    throw refusal;
  }
  return row;
}
