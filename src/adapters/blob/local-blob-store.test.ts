import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INCOMING_FOLDER, createLocalBlobStore } from './local-blob-store.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);

function open() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-local-blobs-'));
  return { root, store: createLocalBlobStore({ root, publicBaseUrl: 'http://localhost:8787/files' }) };
}

async function keys(store: ReturnType<typeof open>['store'], prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const page of store.list(prefix)) found.push(...page.map((object) => object.key));
  return found.sort();
}

function plant(root: string, relative: string, ageSeconds: number): string {
  const file = path.join(root, ...relative.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'partial');
  const at = new Date(Date.now() - ageSeconds * 1000);
  fs.utimesSync(file, at, at);
  return file;
}

describe('local blob store: temporary files', () => {
  it('writes through a temporary file that no key can reach, and leaves only the object', async () => {
    const { root, store } = open();
    await store.put('generated/img_1.png', PNG, 'image/png');
    expect(fs.readdirSync(path.join(root, 'generated'))).toEqual(['img_1.png']);
    expect(fs.readdirSync(path.join(root, INCOMING_FOLDER))).toEqual([]);
  });

  it('makes its folders again when they were removed after an earlier put', async () => {
    const { root, store } = open();
    await store.put('generated/img_1.png', PNG, 'image/png');
    fs.rmSync(path.join(root, INCOMING_FOLDER), { recursive: true });
    fs.rmSync(path.join(root, 'generated'), { recursive: true });
    await store.put('generated/img_2.png', PNG, 'image/png');
    await store.put('uploads/deep/img_3.png', PNG, 'image/png');
    expect((await store.get('generated/img_2.png'))?.bytes).toEqual(Buffer.from(PNG));
    expect(await keys(store)).toEqual(['generated/img_2.png', 'uploads/deep/img_3.png']);
  });

  it('stores an object of several megabytes byte for byte', async () => {
    const { store } = open();
    const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 + 7 }, (_, i) => (i * 2_654_435_761) >>> 24);
    await store.put('generated/img_big.png', bytes, 'image/png');
    expect(Buffer.compare((await store.get('generated/img_big.png'))?.bytes ?? Buffer.alloc(0), bytes)).toBe(0);
  });

  it('never reads or lists what is in the temporary folder', async () => {
    const { root, store } = open();
    plant(root, `${INCOMING_FOLDER}/abc.tmp`, 0);
    expect(await store.get(`${INCOMING_FOLDER}/abc.tmp`)).toBeUndefined();
    expect(await keys(store)).toEqual([]);
  });

  it('removes temporary files older than the cut-off, and keeps newer ones (a write in flight)', async () => {
    const { root, store } = open();
    plant(root, `${INCOMING_FOLDER}/old.tmp`, 3600);
    plant(root, `${INCOMING_FOLDER}/new.tmp`, 0);
    expect(await store.removeIncomplete(new Date(Date.now() - 60_000))).toEqual([`${INCOMING_FOLDER}/old.tmp`]);
    expect(fs.readdirSync(path.join(root, INCOMING_FOLDER))).toEqual(['new.tmp']);
  });

  it('lists the temporary files earlier versions wrote beside the objects, so they can be cleaned as orphans', async () => {
    const { root, store } = open();
    plant(root, 'generated/img_1.png.a1b2c3d4e5f6.tmp', 3600);
    expect(await keys(store, 'generated/')).toEqual(['generated/img_1.png.a1b2c3d4e5f6.tmp']);
  });

  it('removes its temporary file when a put fails', async () => {
    const { root, store } = open();
    fs.mkdirSync(path.join(root, 'generated', 'img_1.png'), { recursive: true });
    await expect(store.put('generated/img_1.png', PNG, 'image/png')).rejects.toThrow();
    expect(fs.readdirSync(path.join(root, INCOMING_FOLDER))).toEqual([]);
  });
});
