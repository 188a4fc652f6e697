export { decodeRgba, maskPng, photoPng } from '../../support/sample-images.js';

export const form = (fields: Record<string, string | Blob | readonly Blob[]>): FormData => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const part of value as readonly Blob[]) body.append(name, part, part instanceof File ? part.name : 'blob');
    else if (typeof value === 'string') body.append(name, value);
    else body.append(name, value as Blob, value instanceof File ? value.name : 'blob');
  }
  return body;
};

export const file = (bytes: Uint8Array, name: string, type = 'image/png'): File => new File([new Uint8Array(bytes)], name, { type });
