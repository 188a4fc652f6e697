import { describe, expect, it } from 'vitest';
import { ApiFailure, failureFrom } from '../../web/src/lib/api-error.js';
import { draftFromTemplate, emptyDraft, generateRequest } from '../../web/src/lib/draft.js';
import { daysBetween, formatUsd } from '../../web/src/lib/format.js';
import { downloadName, imageTitle, tileSources, typesInWords, uploadProblem } from '../../web/src/lib/images.js';
import { matchPage } from '../../web/src/lib/match-page.js';
import { nextPage, pageQuery } from '../../web/src/lib/paging.js';
import { niceCeiling, stackByModel } from '../../web/src/lib/stack.js';
import { APP_PAGES } from '../../src/http/routes/system/app-pages.js';
import type { Model, Template } from '../../web/src/api/types.js';

describe('web app: paging', () => {
  it('follows next_cursor when the API pages by cursor', () => {
    expect(nextPage({ limit: 24, offset: 0, total: 100, has_more: true, next_cursor: 'c_2' }, 24)).toEqual({ cursor: 'c_2' });
    expect(pageQuery({ q: 'fox', model: '' }, 24, { cursor: 'c_2' }).toString()).toBe('q=fox&limit=24&cursor=c_2');
  });

  it('stops at a null cursor even when has_more says otherwise', () => {
    expect(nextPage({ limit: 24, offset: 0, total: 100, has_more: true, next_cursor: null }, 24)).toBeUndefined();
  });

  it('falls back to the offset after what came when there is no cursor', () => {
    expect(nextPage({ limit: 24, offset: 24, total: 60, has_more: true }, 24)).toEqual({ offset: 48 });
    expect(nextPage({ limit: 24, offset: 48, total: 60, has_more: false }, 12)).toBeUndefined();
    expect(pageQuery({}, 24, { offset: 48 }).toString()).toBe('limit=24&offset=48');
    expect(pageQuery({}, 24).toString()).toBe('limit=24');
  });
});

describe('web app: API errors', () => {
  const answer = (status: number, body: string) => new Response(body, { status });

  it('shows `error` and `details.message` once each, and knows the field', async () => {
    const failure = await failureFrom(
      answer(
        400,
        JSON.stringify({ error: 'Invalid prompt', details: { field: 'prompt', message: 'prompt must be at least 3 characters' }, code: 'INVALID_PARAMETER' }),
      ),
    );
    expect([failure.text, failure.field]).toEqual(['Invalid prompt: prompt must be at least 3 characters', 'prompt']);
    const keyMode = await failureFrom(
      answer(
        400,
        JSON.stringify({
          error: 'prompt must be at least 3 characters',
          details: { field: 'prompt', message: 'prompt must be at least 3 characters' },
          code: 'INVALID_PARAMETER',
        }),
      ),
    );
    expect(keyMode.text).toBe('prompt must be at least 3 characters');
  });

  it('puts an invalid model on the model field, and keeps a plain-text answer as it is', async () => {
    expect(
      (await failureFrom(answer(400, JSON.stringify({ error: 'Invalid model', details: { model: 'x', message: 'unknown' }, code: 'INVALID_MODEL' })))).field,
    ).toBe('model');
    const forbidden = await failureFrom(answer(403, 'Forbidden'));
    expect([forbidden.status, forbidden.text, forbidden.field]).toEqual([403, 'Forbidden', undefined]);
    expect(new ApiFailure(0, 'Could not reach the server', 'Failed to fetch', undefined).text).toBe('Could not reach the server: Failed to fetch');
  });
});

describe('web app: pages and formats', () => {
  it('matches every page the server serves, with its parameters, and nothing else', () => {
    expect(matchPage(APP_PAGES, '/collections/coll_1')).toEqual({ page: '/collections/:id', params: { id: 'coll_1' } });
    expect(matchPage(APP_PAGES, '/gallery/')).toEqual({ page: '/gallery', params: {} });
    expect(matchPage(APP_PAGES, '/')).toEqual({ page: '/', params: {} });
    expect(matchPage(APP_PAGES, '/gallery/img_1')).toEqual({ page: '/gallery/:id', params: { id: 'img_1' } });
    expect(matchPage(APP_PAGES, '/gallery/img_1/extra')).toBeUndefined();
    expect(matchPage(APP_PAGES, '/batches/')).toEqual({ page: '/batches', params: {} });
  });

  it('writes small prices with their significant digits', () => {
    expect([0, 0.0006336, 0.042, 0.003, 1.25, 1.5, 0.0000528].map(formatUsd)).toEqual([
      '$0.00',
      '$0.000634',
      '$0.042',
      '$0.003',
      '$1.25',
      '$1.50',
      '$0.0000528',
    ]);
  });

  it('lists every UTC day of a range, across a month end', () => {
    expect(daysBetween('2026-10-30', '2026-11-02')).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
    expect(daysBetween('2026-11-02', '2026-11-01')).toEqual([]);
  });
});

describe('web app: charts', () => {
  it('stacks each day by model in one fixed order, days without images included', () => {
    const rows = [
      { date: '2026-11-01', model: 'b', images: 2, cost: 0.5, deleted_images: 0 },
      { date: '2026-11-01', model: 'a', images: 1, cost: 0, deleted_images: 0 },
      { date: '2026-11-03', model: 'b', images: 4, cost: 1, deleted_images: 0 },
    ];
    const days = stackByModel(rows, ['2026-11-01', '2026-11-02', '2026-11-03'], ['a', 'b'], 'images');
    expect(days).toEqual([
      {
        date: '2026-11-01',
        total: 3,
        segments: [
          { model: 'a', value: 1, base: 0 },
          { model: 'b', value: 2, base: 1 },
        ],
      },
      { date: '2026-11-02', total: 0, segments: [] },
      { date: '2026-11-03', total: 4, segments: [{ model: 'b', value: 4, base: 0 }] },
    ]);
    expect(stackByModel(rows, ['2026-11-01'], ['a', 'b'], 'cost')[0]?.segments).toEqual([{ model: 'b', value: 0.5, base: 0 }]);
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.7, 1, 3, 11, 13, 55, 0.00127].map(niceCeiling)).toEqual([1, 1, 1, 5, 20, 20, 100, 0.002]);
  });
});

describe('web app: generation settings', () => {
  const textOnly: Model['inputs'] = { max_images: 0, mask: false, strength: false };
  const pngOnly: Model['outputs'] = { formats: ['png'], transparent_background: false, quality: [], partial_images: false };
  const model = (over: Partial<Model>): Model => ({
    id: 'm',
    name: 'M',
    provider: 'p',
    provider_name: 'P',
    provider_model: 'm',
    description: '',
    cost_per_image: 0,
    available: true,
    lifecycle: 'active',
    speed: 'fast',
    quality: 'draft',
    typical_seconds: 1,
    default_width: 512,
    default_height: 512,
    min_size: 64,
    max_width: 2048,
    max_height: 2048,
    parameters: [],
    inputs: textOnly,
    outputs: pngOnly,
    pricing: { kind: 'free' },
    pricing_source: '',
    user_id: 'system',
    ...over,
  });

  it('sends only the settings the model takes, and only those filled in', () => {
    const draft = { ...emptyDraft('m'), prompt: 'a fox', width: '256', height: '', seed: '7', steps: '4', negative_prompt: 'fog' };
    expect(generateRequest(draft, model({ parameters: ['width', 'height', 'steps'] }))).toEqual({ prompt: 'a fox', model: 'm', width: 256, steps: 4 });
    expect(generateRequest(draft, model({ parameters: ['seed', 'negative_prompt'] }))).toEqual({
      prompt: 'a fox',
      model: 'm',
      seed: 7,
      negative_prompt: 'fog',
    });
  });

  it("takes a template's model, prompt and settings, and names the template in the request", () => {
    const template: Template = {
      id: 'tmpl_1',
      name: 'Lake',
      model: 'm',
      default_prompt: 'a lake',
      parameters: { width: 256, steps: 2 },
      user_id: 'u',
      is_sample: false,
      created_at: '',
      updated_at: '',
    };
    const draft = draftFromTemplate(template, emptyDraft('other'));
    expect(generateRequest(draft, model({ parameters: ['width', 'steps'] }))).toEqual({
      prompt: 'a lake',
      model: 'm',
      template_id: 'tmpl_1',
      width: 256,
      steps: 2,
    });
  });

  it('sends input images, the mask and strength only to a model that takes them, and no more images than it takes', () => {
    const draft = { ...emptyDraft('m'), prompt: 'make it night', strength: '0.4' };
    const inputs = { imageIds: ['img_a', 'img_b'], maskImageId: 'img_mask' };
    const editor = model({ inputs: { max_images: 1, mask: true, strength: true } });
    expect(generateRequest(draft, editor, inputs)).toEqual({
      prompt: 'make it night',
      model: 'm',
      image_ids: ['img_a'],
      mask_image_id: 'img_mask',
      strength: 0.4,
    });
    const references = model({ inputs: { max_images: 4, mask: true, strength: false } });
    // A mask belongs to one image to edit: with references besides it, none is sent.
    expect(generateRequest(draft, references, inputs)).toEqual({ prompt: 'make it night', model: 'm', image_ids: ['img_a', 'img_b'] });
    expect(generateRequest(draft, model({}), inputs)).toEqual({ prompt: 'make it night', model: 'm' });
    expect(generateRequest(draft, model({ inputs: { max_images: 0, mask: false, strength: false } }), inputs)).toEqual({ prompt: 'make it night', model: 'm' });
  });

  it('sends output settings only when chosen and only those the model has', () => {
    const outputs: Model['outputs'] = {
      formats: ['png', 'jpeg', 'webp'],
      transparent_background: true,
      quality: ['low', 'medium', 'high'],
      partial_images: false,
    };
    const draft = { ...emptyDraft('m'), prompt: 'a fox', output_format: 'webp', output_compression: '80', quality: 'high', background: 'transparent' };
    expect(generateRequest(draft, model({ outputs }))).toEqual({
      prompt: 'a fox',
      model: 'm',
      output_format: 'webp',
      output_compression: 80,
      quality: 'high',
      background: 'transparent',
    });
    const plain: Model['outputs'] = { formats: ['png', 'jpeg'], transparent_background: false, quality: [], partial_images: false };
    expect(generateRequest(draft, model({ outputs: plain }))).toEqual({ prompt: 'a fox', model: 'm' });
    expect(generateRequest({ ...draft, output_format: 'jpeg' }, model({ outputs: plain }))).toEqual({
      prompt: 'a fox',
      model: 'm',
      output_format: 'jpeg',
      output_compression: 80,
    });
    expect(generateRequest(emptyDraft('m'), model({ outputs }))).toEqual({ prompt: '', model: 'm' });
  });
});

describe('web app: images', () => {
  it('names an upload without a prompt, and downloads each file with the extension it is stored with', () => {
    expect(imageTitle({ prompt: '', kind: 'upload' })).toBe('Uploaded image');
    expect(imageTitle({ prompt: 'a fox', kind: 'generated' })).toBe('a fox');
    expect(downloadName({ id: 'img_1', r2_key: 'uploads/img_1.jpg' })).toBe('img_1.jpg');
    expect(downloadName({ id: 'img_2', r2_key: 'generated/img_2.webp' })).toBe('img_2.webp');
    expect(downloadName({ id: 'img_3', r2_key: 'generated/img_3.png' })).toBe('img_3.png');
  });

  const thumbnails = { small: 'https://cdn/t-256.webp', medium: 'https://cdn/t-768.webp' };

  it('offers a tile its thumbnails and the original by their real widths, the small one as src', () => {
    expect(tileSources({ r2_url: 'https://cdn/o.png', width: 2048, height: 2048, thumbnails })).toEqual({
      src: 'https://cdn/t-256.webp',
      srcset: 'https://cdn/t-256.webp 256w, https://cdn/t-768.webp 768w, https://cdn/o.png 2048w',
    });
    // A portrait's thumbnails are narrower than their long side.
    expect(tileSources({ r2_url: 'https://cdn/o.png', width: 1000, height: 2000, thumbnails }).srcset).toBe(
      'https://cdn/t-256.webp 128w, https://cdn/t-768.webp 384w, https://cdn/o.png 1000w',
    );
  });

  it('names each width once for a small image, whose thumbnails keep its size, and shows the original without thumbnails', () => {
    expect(tileSources({ r2_url: 'https://cdn/o.png', width: 300, height: 200, thumbnails }).srcset).toBe(
      'https://cdn/t-256.webp 256w, https://cdn/t-768.webp 300w',
    );
    expect(tileSources({ r2_url: 'https://cdn/o.png', width: 200, height: 100, thumbnails }).srcset).toBe('https://cdn/t-256.webp 200w');
    expect(tileSources({ r2_url: 'https://cdn/o.png', width: 2048, height: 2048, thumbnails: null })).toEqual({ src: 'https://cdn/o.png' });
    expect(tileSources({ r2_url: 'https://cdn/o.png' })).toEqual({ src: 'https://cdn/o.png' });
  });
});

describe('what the upload field takes, from /app/config.json', () => {
  it('names the types in words, PNG alone on a server that decodes PNG only', () => {
    expect(typesInWords(['image/png', 'image/jpeg', 'image/webp'])).toBe('PNG, JPEG or WebP');
    expect(typesInWords(['image/png'])).toBe('PNG');
  });

  it('refuses a JPEG before sending it where the server decodes PNG only, and takes it where it decodes all three', () => {
    const jpeg = new File([new Uint8Array(8)], 'holiday.jpg', { type: 'image/jpeg' });
    expect(uploadProblem(jpeg, ['image/png'])).toBe('holiday.jpg is not a PNG image.');
    expect(uploadProblem(jpeg, ['image/png', 'image/jpeg', 'image/webp'])).toBeUndefined();
  });
});
