import { describe, expect, it } from 'vitest';
import type { Image, Model } from '../../web/src/api/types.js';
import { emptyDraft } from '../../web/src/lib/draft.js';
import { downloadFileName, downloadStem } from '../../web/src/lib/download.js';
import { stepsThrough } from '../../web/src/pages/gallery/dialog-steps.js';
import { draftFromImage } from '../../web/src/pages/generate/reuse-draft.js';

const image = (fields: Partial<Image>): Image => ({
  id: 'img_1',
  prompt: 'a fox',
  model: 'local/procedural',
  r2_key: 'generated/img_1.png',
  r2_url: 'http://127.0.0.1:8787/files/generated/img_1.png',
  width: 512,
  height: 512,
  created_at: '2026-11-24T07:00:00.000Z',
  cost: 0,
  user_id: 'admin',
  is_deleted: false,
  template_id: null,
  parameters: {},
  metadata: null,
  kind: 'generated',
  upload_role: null,
  source_image_ids: [],
  thumbnails: null,
  ...fields,
});

describe('web app: download names', () => {
  it('names a download after the prompt, in lower-case words joined by hyphens, with the stored extension', () => {
    expect(downloadFileName(image({ prompt: 'A Red Fox: "in the snow" / at dawn?' }))).toBe('a-red-fox-in-the-snow-at-dawn.png');
    expect(downloadFileName(image({ prompt: 'Café au lait, über alles', r2_key: 'generated/img_1.webp' }))).toBe('café-au-lait-über-alles.webp');
    expect(downloadFileName(image({ prompt: '../../etc/passwd', r2_key: 'generated/img_1.jpeg' }))).toBe('etc-passwd.jpeg');
  });

  it('keeps whole words within 60 characters, and falls back to the id when the prompt has none', () => {
    const stem = downloadStem(image({ prompt: 'a very long prompt about a lighthouse on a cliff at sunset with gulls and waves and spray' }));
    expect(stem).toBe('a-very-long-prompt-about-a-lighthouse-on-a-cliff-at-sunset');
    expect(stem.length).toBeLessThanOrEqual(60);
    expect(downloadStem(image({ prompt: 'x'.repeat(80) }))).toHaveLength(60);
    expect(downloadStem(image({ prompt: '?!/…' }))).toBe('img_1');
  });

  it('cuts one very long word between characters, never inside a surrogate pair', () => {
    // U+20000 is a CJK letter outside the BMP: two UTF-16 units each, so a cut at 60 units (after the `a`) splits the 30th.
    const stem = downloadStem(image({ prompt: `a${'\u{20000}'.repeat(80)}` }));
    expect(stem.isWellFormed()).toBe(true);
    expect(Array.from(stem)).toHaveLength(60);
  });

  it("drops the extension of an upload's file name", () => {
    expect(downloadFileName(image({ kind: 'upload', prompt: 'Holiday Photo.JPG', r2_key: 'uploads/img_1.jpg' }))).toBe('holiday-photo.jpg');
  });
});

describe('web app: Previous and Next', () => {
  it('steps to the neighbours in the list, says where the image is, and has no step past either end', () => {
    const opened: string[] = [];
    const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const middle = stepsThrough(list, 'b', (id) => opened.push(id), { total: 10 });
    middle?.previous?.();
    middle?.next?.();
    expect(opened).toEqual(['a', 'c']);
    expect(middle?.position).toBe('2 of 10');
    expect(stepsThrough(list, 'a', () => undefined)?.previous).toBeUndefined();
    expect(stepsThrough(list, 'c', () => undefined)?.next).toBeUndefined();
    expect(stepsThrough(list, 'z', () => undefined)).toBeUndefined();
    const more = () => undefined;
    expect(stepsThrough(list, 'c', () => undefined, { more })?.next).toBe(more);
  });
});

describe('web app: Reuse prompt', () => {
  const procedural = { id: 'local/procedural', lifecycle: 'active' } as Model;
  const old = { id: 'openai/gpt-image-1', lifecycle: 'shut_down' } as Model;

  it('fills in the prompt, the model and the recorded settings', () => {
    const draft = draftFromImage(
      image({ parameters: { width: 384, height: 256, seed: 7, steps: 12, guidance: 3.5, negative_prompt: 'fog' } }),
      emptyDraft('other'),
      [procedural],
    );
    expect(draft).toMatchObject({
      prompt: 'a fox',
      model: 'local/procedural',
      width: '384',
      height: '256',
      seed: '7',
      steps: '12',
      guidance: '3.5',
      negative_prompt: 'fog',
      templateId: '',
    });
  });

  it("keeps the form's model, and leaves out the size, when the image's model is no longer offered", () => {
    const draft = draftFromImage(
      image({ model: 'openai/gpt-image-1', parameters: { width: 1024, height: 1024, quality: 'high' } }),
      emptyDraft('local/procedural'),
      [procedural, old],
    );
    expect(draft).toMatchObject({ prompt: 'a fox', model: 'local/procedural', width: '', height: '', quality: 'high' });
  });
});
