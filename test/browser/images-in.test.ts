import type { Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutChromium } from './support/chromium.js';
import { horizontalOverflow, screenshotBoth } from './support/screenshots.js';
import { shootAt1280And390 } from './support/shots-widths.js';
import { closeAndGuard, openWebSession, type WebSession } from './support/web-session.js';
import { loadedWidth } from './support/loaded-image.js';

const KEY = 'igk_web_images_in_admin_key_0123456789';
const skip = skipWithoutChromium();
const WIDTH = 320;
const HEIGHT = 240;

/** A real PNG with something to see: a left-to-right gradient, blue to orange. */
async function gradientPng(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const t = x / (WIDTH - 1);
      pixels.set([Math.round(30 + 210 * t), Math.round(80 + 60 * t), Math.round(200 - 170 * t)], (y * WIDTH + x) * 3);
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * Issue 18, "images in", as a person uses it: upload a picture, find it in the gallery, paint a mask over
 * it, generate on the offline model, and follow the lineage both ways. Each step builds on the last.
 */
describe.skipIf(skip)('the web app with images in: uploads, a painted mask and lineage (real server, Chromium)', { timeout: 180_000 }, () => {
  let web: WebSession;
  let page: Page;
  let png: Buffer;
  let uploadId = '';
  let editedId = '';
  let maskId = '';
  const edited = 'a full moon over the water';

  beforeAll(async () => {
    png = await gradientPng();
    web = await openWebSession({ env: { ADMIN_API_KEY: KEY }, signInKey: KEY });
    page = web.page;
  }, 180_000);
  closeAndGuard(() => web);

  const call = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${web.origin}${path}`, { headers: { Authorization: `Bearer ${KEY}` } });
    return (await res.json()) as T;
  };
  const shoot = async (name: string, options: { fullPage?: boolean } = {}) => {
    await screenshotBoth(page, name, options);
    expect(await horizontalOverflow(page), `${name} is wider than 360 px`).toBeLessThanOrEqual(0);
  };
  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const inputs = () => page.getByRole('list', { name: 'Input images' });
  const isPost = (path: string) => (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === path;

  it('uploads a PNG with "Upload image" and shows it as the input image, removable', async () => {
    await page.goto(`${web.origin}/generate`);
    await heading('Generate');
    await page.getByLabel('Model', { exact: true }).selectOption('local/procedural');
    const fields = page.getByRole('group', { name: 'Input image' });
    expect(await fields.locator('.hint').textContent()).toContain('One image to edit');

    const answer = page.waitForResponse((response) => isPost('/api/uploads')(response.request()));
    await page.getByLabel('Upload image').setInputFiles({ name: 'gradient.png', mimeType: 'image/png', buffer: png });
    const response = await answer;
    expect(response.status()).toBe(201);
    const record = (await response.json()) as { id: string; kind: string; width: number; height: number };
    expect(record).toMatchObject({ kind: 'upload', width: WIDTH, height: HEIGHT });
    uploadId = record.id;

    const thumbnail = inputs().getByRole('img', { name: 'gradient.png' });
    await thumbnail.waitFor();
    expect(await loadedWidth(thumbnail)).toBe(WIDTH);
    expect(await inputs().getByText(`${WIDTH} × ${HEIGHT}`).count()).toBe(1);
    // The offline model takes a strength when it has an input image.
    await page.getByRole('slider', { name: 'Strength' }).waitFor();
    await shoot('generate-input');

    await inputs().getByRole('button', { name: 'Remove gradient.png' }).click();
    await inputs().waitFor({ state: 'detached' });
    expect(await page.getByRole('slider', { name: 'Strength' }).count()).toBe(0);
  });

  it('says which files it cannot take before sending them', async () => {
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (isPost('/api/uploads')(request)) uploads.push(request.url());
    });
    await page.getByLabel('Upload image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await page.getByRole('alert').getByText('notes.txt is not a PNG, JPEG or WebP image.').waitFor();
    expect(uploads).toEqual([]);
  });

  it("shows the API's words when the server refuses a file that only claims to be a PNG", async () => {
    web.guard.expectFailure(400, '/api/uploads');
    await page.getByLabel('Upload image').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('this is not a picture at all') });
    const error = page.getByRole('group', { name: 'Input image' }).getByRole('alert');
    await error.getByText(/file is not a PNG, JPEG or WebP image/).waitFor();
    expect(await inputs().count()).toBe(0);
  });

  it('shows the upload in the gallery under Kind "Uploads", and only uploads there', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gallery', exact: true }).click();
    await heading('Gallery');
    const listed = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/images' && new URL(request.url()).searchParams.get('kind') === 'upload',
    );
    await page.getByLabel('Kind').selectOption({ label: 'Uploads' });
    await listed;
    const grid = page.getByRole('list', { name: 'Images' });
    await grid.getByRole('img', { name: 'gradient.png' }).waitFor();
    expect(await grid.getByRole('img').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('kind')).toBe('upload');
    await page.getByText('1 image matches').waitFor();
    await shoot('gallery-uploaded');
  });

  it('"Edit" in the details opens Generate with the image as the input', async () => {
    await page.getByRole('list', { name: 'Images' }).getByRole('button', { name: 'gradient.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'Image details' });
    await dialog.getByText('Uploaded', { exact: true }).waitFor();
    await dialog.getByRole('link', { name: 'Edit' }).click();
    await heading('Generate');
    expect(new URL(page.url()).searchParams.get('image')).toBe(uploadId);
    await inputs().getByRole('img', { name: 'gradient.png' }).waitFor();
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('local/procedural');
  });

  it('paints a mask over the input and generates with image_ids and mask_image_id; the mask is the painted area, transparent', async () => {
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill(edited);
    await page.getByRole('button', { name: 'Paint mask' }).click();
    const canvas = page.getByRole('img', { name: 'Mask: the painted area will change' });
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    if (box === null) throw new Error('the mask canvas is not on screen');
    // One stroke across the middle, from a quarter to three fifths of the width.
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5, { steps: 12 });
    await page.mouse.up();
    await page.getByText('Mask painted: only the painted area changes.').waitFor();
    await page.getByRole('slider', { name: 'Strength' }).fill('0.5');
    await shoot('generate-mask');

    const sent = page.waitForRequest(isPost('/api/generate'));
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const body = (await sent).postDataJSON() as { image_ids?: string[]; mask_image_id?: string; strength?: number; model?: string };
    expect(body).toMatchObject({ model: 'local/procedural', image_ids: [uploadId], strength: 0.5 });
    expect(body.mask_image_id).toMatch(/^img_/);
    maskId = body.mask_image_id ?? '';

    const result = page.getByRole('img', { name: edited, exact: true });
    await result.waitFor();
    const download = await page.getByRole('link', { name: 'Download' }).getAttribute('href');
    editedId = /\/(img_[^/.]+)\.\w+$/.exec(download ?? '')?.[1] ?? '';
    expect(editedId).not.toBe('');

    // The mask as uploaded: the input's size, alpha 0 on the stroke, opaque away from it.
    const mask = await call<{ r2_url: string; width: number; height: number }>(`/api/images/${maskId}`);
    expect([mask.width, mask.height]).toEqual([WIDTH, HEIGHT]);
    const raw = await sharp(Buffer.from(await (await fetch(mask.r2_url)).arrayBuffer()))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const alpha = (x: number, y: number) => raw.data[(Math.round(y) * raw.info.width + Math.round(x)) * 4 + 3];
    expect(alpha(WIDTH * 0.4, HEIGHT * 0.5)).toBe(0);
    expect(alpha(WIDTH * 0.05, HEIGHT * 0.05)).toBe(255);
    expect(alpha(WIDTH * 0.9, HEIGHT * 0.9)).toBe(255);
  });

  it('lists "Made from" in the new image\'s details, linking to the upload, whose details list "Made into" back', async () => {
    const record = await call<{ source_image_ids: string[] }>(`/api/images/${editedId}`);
    expect(record.source_image_ids).toEqual([uploadId]);

    await page.goto(`${web.origin}/gallery`);
    await heading('Gallery');
    await page.getByRole('list', { name: 'Images' }).getByRole('button', { name: edited }).click();
    const dialog = page.getByRole('dialog', { name: 'Image details' });
    const madeFrom = dialog.getByRole('list', { name: 'Made from' });
    const link = madeFrom.getByRole('link', { name: 'gradient.png' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/gallery/${uploadId}`);
    // The mask it was made with is an upload of its own, linked rather than listed as an id.
    expect(await dialog.getByRole('list', { name: 'Mask' }).getByRole('link', { name: 'mask.png' }).getAttribute('href')).toBe(`/gallery/${maskId}`);
    expect(await dialog.locator('dl').innerText()).not.toContain(`mask_image_id`);
    await shoot('image-made-from', { fullPage: false });

    await link.click();
    await dialog.getByText('Uploaded', { exact: true }).waitFor();
    const madeInto = dialog.getByRole('list', { name: 'Made into' }).getByRole('link', { name: edited });
    await madeInto.waitFor();
    expect(await madeInto.getAttribute('href')).toBe(`/gallery/${editedId}`);
    await shoot('image-made-into', { fullPage: false });
  });

  it('opens the details an older address names (/gallery?image=<id>) at their own, /gallery/<id>', async () => {
    await page.goto(`${web.origin}/gallery?image=${uploadId}`);
    const dialog = page.getByRole('dialog', { name: 'Image details' });
    await dialog.getByRole('list', { name: 'Made into' }).getByRole('link', { name: edited }).waitFor();
    await page.waitForURL((url) => url.pathname === `/gallery/${uploadId}` && !url.searchParams.has('image'));
  });

  it("keeps the painted mask and an API edit's input out of the main grid, and shows them all under Uploads", async () => {
    // An edit as the AI SDK sends it: the file named `blob`, stored as the edit's input and named by its time.
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await sharp(png).flop().png().toBuffer())], { type: 'image/png' }), 'blob');
    form.append('prompt', 'a lighthouse at dusk');
    form.append('model', 'local/procedural');
    const edit = await fetch(`${web.origin}/v1/images/edits`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}` }, body: form });
    expect(edit.status).toBe(200);
    const uploads = await call<{ images: { id: string; prompt: string; upload_role: string }[] }>('/api/images?kind=upload');
    const input = uploads.images.find((image) => image.upload_role === 'input');
    expect(input?.prompt).toMatch(/^input-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.png$/);
    expect(uploads.images.find((image) => image.id === maskId)?.upload_role).toBe('mask');

    await page.goto(`${web.origin}/gallery`);
    await heading('Gallery');
    const grid = page.getByRole('list', { name: 'Images' });
    await grid.getByRole('img', { name: 'a lighthouse at dusk' }).waitFor();
    const shown = async () => (await grid.getByRole('img').evaluateAll((images) => images.map((image) => image.getAttribute('alt') ?? ''))).sort();
    // What the user made and uploaded on purpose; not the mask, not the edit's input.
    expect(await shown()).toEqual(['a full moon over the water', 'a lighthouse at dusk', 'gradient.png']);
    await page.getByText('3 images', { exact: true }).waitFor();
    expect(await shootAt1280And390(page, 'gallery-main-grid')).toBeLessThanOrEqual(0);

    await page.getByLabel('Kind').selectOption({ label: 'Uploads' });
    await grid.getByRole('img', { name: 'mask.png' }).waitFor();
    expect(await shown()).toEqual(['gradient.png', input?.prompt ?? '', 'mask.png'].sort());
    await page.getByText('3 images match').waitFor();
    expect(await shootAt1280And390(page, 'gallery-uploads-filter')).toBeLessThanOrEqual(0);

    await grid.getByRole('button', { name: 'mask.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'Image details' });
    await dialog.getByText('Mask', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    // Closing goes back to the gallery's own address: a navigation the next test's page.goto must not cut into.
    await page.waitForURL((url) => url.pathname === '/gallery');
  });

  it('takes a file dropped on the Generate form as the input image', async () => {
    await page.goto(`${web.origin}/generate`);
    await heading('Generate');
    await page.getByLabel('Model', { exact: true }).selectOption('local/procedural');
    const form = page.locator('form.generate-form');
    const files = await page.evaluateHandle(
      (base64) => {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
        return transfer;
      },
      // Other bytes than gradient.png's: the same bytes would be that upload again, under its name.
      (await sharp(png).negate().png().toBuffer()).toString('base64'),
    );
    const uploaded = page.waitForResponse((response) => isPost('/api/uploads')(response.request()));
    await form.dispatchEvent('dragover', { dataTransfer: files });
    await form.dispatchEvent('drop', { dataTransfer: files });
    expect((await uploaded).status()).toBe(201);
    await inputs().getByRole('img', { name: 'dropped.png' }).waitFor();
  });
});
