import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBatch } from '../../../src/domain/batches/create-batch.js';
import { ApiError } from '../../../src/domain/errors.js';
import { generateImage, type GenerateImageInput } from '../../../src/domain/images/generate-image.js';
import { harnessWithStandIn } from '../../../src/test-support/stand-in-harness.js';
import type { StandIn } from '../../../src/test-support/stand-in-provider.js';
import { json, type Harness } from '../../../src/test-support/harness.js';

/**
 * The verb itself, not only the HTTP body middleware, refuses text a database cannot store: MCP, the CLI and
 * batches call it too, and on PostgreSQL a NUL used to fail the insert after the provider had been paid.
 */
const PAID = 'replicate/black-forest-labs/flux-schnell';
let h: Harness;
let standIn: StandIn;
beforeEach(async () => ({ h, standIn } = await harnessWithStandIn()));
afterEach(() => h.close());

const base: GenerateImageInput = { prompt: 'a lighthouse on a cliff', model: PAID, width: 256, height: 256 };

async function refusal(input: GenerateImageInput): Promise<ApiError> {
  const error = await generateImage({ deps: h.deps, ctx: { userId: 'admin', requestId: 'test' }, input }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('generating refuses text no database can store, before any provider call', () => {
  it.each<[string, GenerateImageInput, string]>([
    ['a NUL in the prompt', { ...base, prompt: 'a light\u0000house' }, 'prompt'],
    ['a lone surrogate in the prompt', { ...base, prompt: 'a lighthouse \ud800' }, 'prompt'],
    ['a NUL in negative_prompt', { ...base, negative_prompt: 'fog\u0000' }, 'negative_prompt'],
    ['a NUL in the model id', { ...base, model: `${PAID}\u0000` }, 'model'],
    ['a NUL in template_id', { ...base, template_id: 'tmpl_\u0000' }, 'template_id'],
    ['a NUL in a metadata key', { ...base, metadata: { 'ca\u0000mpaign': 'spring' } }, 'metadata'],
    ['a NUL in a metadata value', { ...base, metadata: { campaign: { name: 'spr\u0000ing' } } }, 'metadata'],
  ])('refuses %s with a 400 naming the field', async (_what, input, field) => {
    const error = await refusal(input);
    expect(error.code).toBe('INVALID_PARAMETER');
    expect(error.details).toMatchObject({ field, message: expect.stringMatching(/NUL character|lone UTF-16 surrogate/) });
    expect(standIn.calls()).toBe(0);
    const listed = await json<{ pagination: { total: number } }>(await h.call('GET', '/api/images'));
    expect(listed.pagination.total).toBe(0);
  });

  it('still generates when the same request has storable text', async () => {
    const image = await generateImage({
      deps: h.deps,
      ctx: { userId: 'admin', requestId: 'test' },
      input: { ...base, template_id: undefined, metadata: { campaign: 'spring' } },
    });
    expect(image.prompt).toBe('a lighthouse on a cliff');
    expect(standIn.calls()).toBe(1);
  });
});

describe('a batch refuses a later prompt no database can store', () => {
  it('refuses a NUL in the second prompt with a 400 naming its index, queueing nothing', async () => {
    const error = await createBatch({
      deps: h.deps,
      ctx: { userId: 'admin', requestId: 'test' },
      input: { prompts: ['a red fox', 'a blue\u0000 whale'], model: PAID, width: 256, height: 256 },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).details).toMatchObject({ field: 'prompts', index: 1, message: expect.stringContaining('NUL character') });
    const listed = await json<{ batches: unknown[] }>(await h.call('GET', '/api/batch'));
    expect(listed.batches).toHaveLength(0);
  });
});
