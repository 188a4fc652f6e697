import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ImageCodec } from '../../ports/image-codec.js';
import { ApiError } from '../errors.js';
import { verifyImageFile } from './check-image-file.js';

const picture = (format: 'png' | 'jpeg') =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: 'teal' } })
    [format]()
    .toBuffer();

/** A codec that decodes what it is given (8x8) and says which types it reads. */
const codec = (inputFormats?: ImageCodec['inputFormats']): Pick<ImageCodec, 'verify' | 'inputFormats'> => ({
  inputFormats,
  verify: async () => ({ width: 8, height: 8 }),
});

describe('verifyImageFile', () => {
  it('refuses a type the codec cannot decode with a 400 that names the type and what to send', async () => {
    const refused = await verifyImageFile(codec(['image/png']), await picture('jpeg'), 'image').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).toBody()).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { field: 'image', message: 'image is a JPEG, and this server decodes PNG images only: send it as PNG' },
    });
  });

  it('passes a type the codec reads, and every type when the codec names none', async () => {
    await expect(verifyImageFile(codec(['image/png']), await picture('png'), 'image')).resolves.toEqual({ width: 8, height: 8 });
    await expect(verifyImageFile(codec(), await picture('jpeg'), 'image')).resolves.toEqual({ width: 8, height: 8 });
  });
});
