import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inpaintingMaskPng } from './inpainting-mask-task.js';
import { repaintWhereTransparent } from './inpainting-mask.js';

describe('repaintWhereTransparent', () => {
  it('marks fully transparent RGBA pixels white (repaint) and every other pixel black (keep)', () => {
    // Four pixels: transparent black, opaque white, half transparent, transparent white.
    const data = new Uint8Array([0, 0, 0, 0, 255, 255, 255, 255, 10, 20, 30, 128, 255, 255, 255, 0]);
    expect([...repaintWhereTransparent({ data, width: 2, height: 2, channels: 4 })]).toEqual([255, 0, 0, 255]);
  });

  it('reads the alpha of a grey-and-alpha mask from its second channel', () => {
    const data = new Uint8Array([255, 0, 0, 255, 0, 1]);
    expect([...repaintWhereTransparent({ data, width: 3, height: 1, channels: 2 })]).toEqual([255, 0, 0]);
  });

  it('keeps everything when the mask has no alpha channel, since nothing in it is transparent', () => {
    const data = new Uint8Array([0, 0, 0, 255, 255, 255]);
    expect([...repaintWhereTransparent({ data, width: 2, height: 1, channels: 3 })]).toEqual([0, 0]);
  });

  it('refuses pixel data whose length does not match its size', () => {
    expect(() => repaintWhereTransparent({ data: new Uint8Array(15), width: 2, height: 2, channels: 4 })).toThrow('has 16 bytes, not 15');
    expect(() => repaintWhereTransparent({ data: new Uint8Array(5), width: 1, height: 1, channels: 5 })).toThrow('1 to 4 channels');
  });
});

describe('inpaintingMaskPng (the CPU-pool task)', () => {
  it('turns a PNG with a transparent square into a same-size grey PNG, white on the square and black elsewhere', async () => {
    // 8x4, opaque red, with the left 4x4 half cut out (fully transparent): the part to change.
    const pixels = Buffer.alloc(8 * 4 * 4);
    for (let y = 0; y < 4; y += 1) {
      for (let x = 0; x < 8; x += 1) pixels.set(x < 4 ? [0, 0, 0, 0] : [255, 0, 0, 255], (y * 8 + x) * 4);
    }
    const mask = await sharp(pixels, { raw: { width: 8, height: 4, channels: 4 } }).png().toBuffer();
    const converted = await inpaintingMaskPng(new Uint8Array(mask));
    const { data, info } = await sharp(converted).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ format: 'raw', width: 8, height: 4, channels: 1 });
    expect(await sharp(converted).metadata()).toMatchObject({ format: 'png', channels: 1, width: 8, height: 4 });
    const row = [255, 255, 255, 255, 0, 0, 0, 0];
    expect([...data]).toEqual([...row, ...row, ...row, ...row]);
  });
});
