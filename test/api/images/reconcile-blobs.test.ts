import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { INCOMING_FOLDER, createLocalBlobStore } from '../../../src/adapters/blob/local-blob-store.js';
import { reconcileBlobs } from '../../../src/domain/images/reconcile-blobs.js';
import type { ChargeRow, ImageRow } from '../../../src/ports/database.js';
import { systemClock } from '../../../src/ports/clock.js';
import { createHarness, type Harness } from '../../../src/test-support/harness.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
const GRACE = 900;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const row = (id: string, over: Partial<ImageRow> = {}): ImageRow => ({
  id,
  user_id: 'alice',
  prompt: 'a cat',
  model: 'local/procedural',
  r2_key: `generated/${id}.png`,
  width: 4,
  height: 4,
  cost: 0,
  is_deleted: false,
  created_at: '2026-11-20T10:00:00.000Z',
  deleted_at: null,
  template_id: null,
  metadata: null,
  parameters: {},
  ...over,
});

/** A paid call's charge for image `imageId`, reserved. */
const charge = (imageId: string): ChargeRow => ({
  id: `chg_${imageId}`,
  user_id: 'alice',
  key_id: null,
  image_id: imageId,
  model: 'stability/core',
  provider: 'stability',
  provider_job_id: null,
  journal: null,
  estimated_usd: 0.03,
  cost_usd: 0.03,
  outcome: 'reserved',
  error: null,
  created_at: '2026-11-20T10:00:00.000Z',
  settled_at: null,
});

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

async function setUp() {
  harness = await createHarness({ workers: false, storage: 'memory' });
  const { logger, lines } = capturingLogger();
  return { h: harness, deps: { ...harness.deps, logger }, lines };
}

describe('reconciling the blob store at start', () => {
  it("removes old objects that no live image points at (a soft-deleted image's left-over file too) and keeps every live one, other users' included", async () => {
    const { h, deps, lines } = await setUp();
    for (const id of ['img_kept', 'img_bob', 'img_deleted', 'img_orphan']) await h.blobs.put(`generated/${id}.png`, PNG, 'image/png');
    await h.deps.db.images.insert(row('img_kept'));
    await h.deps.db.images.insert(row('img_bob', { user_id: 'bob' }));
    await h.deps.db.images.insert(row('img_deleted'));
    await h.deps.db.images.softDelete('alice', 'img_deleted', '2026-11-20T10:00:01.000Z');
    h.clock.advance((GRACE + 1) * 1000);

    const report = await reconcileBlobs(deps, { graceSeconds: GRACE });
    expect({ ...report, orphans: [...report.orphans].sort() }).toEqual({ orphans: ['generated/img_deleted.png', 'generated/img_orphan.png'], incomplete: [] });
    expect(await h.blobs.keys()).toEqual(['generated/img_bob.png', 'generated/img_kept.png']);
    const logged = lines.find((line) => line.level === 40);
    expect(logged).toMatchObject({ removedOrphans: 2 });
    expect(String(logged?.msg)).toContain('blob store cleaned');
  });

  it('looks at uploads too: an uploaded file without its record goes, a recorded upload and a webp image stay', async () => {
    const { h, deps } = await setUp();
    for (const key of ['uploads/img_up.jpg', 'uploads/img_lost.png', 'generated/img_w.webp']) await h.blobs.put(key, PNG, 'image/png');
    await h.deps.db.images.insert(row('img_up', { r2_key: 'uploads/img_up.jpg', kind: 'upload', model: 'upload' }));
    await h.deps.db.images.insert(row('img_w', { r2_key: 'generated/img_w.webp' }));
    h.clock.advance((GRACE + 1) * 1000);

    expect((await reconcileBlobs(deps, { graceSeconds: GRACE })).orphans).toEqual(['uploads/img_lost.png']);
    expect(await h.blobs.keys()).toEqual(['generated/img_w.webp', 'uploads/img_up.jpg']);
  });

  it('keeps the thumbnails of live images and sweeps those of soft-deleted images and of images without a record', async () => {
    const { h, deps } = await setUp();
    const thumbnails = (id: string) => [`thumbnails/${id}-256.webp`, `thumbnails/${id}-768.webp`];
    for (const id of ['img_kept', 'img_deleted', 'img_gone']) {
      await h.blobs.put(`generated/${id}.png`, PNG, 'image/png');
      for (const key of thumbnails(id)) await h.blobs.put(key, PNG, 'image/webp');
    }
    await h.blobs.put('thumbnails/not-a-thumbnail.txt', PNG, 'text/plain');
    await h.deps.db.images.insert(row('img_kept', { has_thumbnails: true }));
    await h.deps.db.images.insert(row('img_deleted', { has_thumbnails: true }));
    await h.deps.db.images.softDelete('alice', 'img_deleted', '2026-11-20T10:00:01.000Z');
    h.clock.advance((GRACE + 1) * 1000);
    // Written after the others: its image's record may be on its way.
    await h.blobs.put('thumbnails/img_in_flight-256.webp', PNG, 'image/webp');

    const { orphans } = await reconcileBlobs(deps, { graceSeconds: GRACE });
    expect(orphans.sort()).toEqual([
      'generated/img_deleted.png',
      'generated/img_gone.png',
      ...thumbnails('img_deleted'),
      ...thumbnails('img_gone'),
      'thumbnails/not-a-thumbnail.txt',
    ]);
    expect(await h.blobs.keys()).toEqual(['generated/img_kept.png', 'thumbnails/img_in_flight-256.webp', ...thumbnails('img_kept')]);
  });

  it('keeps an object younger than the grace period: its record may be on its way', async () => {
    const { h, deps, lines } = await setUp();
    await h.blobs.put('generated/img_old.png', PNG, 'image/png');
    h.clock.advance(GRACE * 1000);
    await h.blobs.put('generated/img_in_flight.png', PNG, 'image/png');
    h.clock.advance(1000);

    expect((await reconcileBlobs(deps, { graceSeconds: GRACE })).orphans).toEqual(['generated/img_old.png']);
    expect(await h.blobs.keys()).toEqual(['generated/img_in_flight.png']);
    expect(lines.filter((line) => line.level === 40)).toHaveLength(1);
  });

  it('keeps a paid answer whose charge is still reserved however old (its record failed in an outage and is on its way), and sweeps it once the charge ended without a record', async () => {
    const { h, deps } = await setUp();
    for (const id of ['img_awaited', 'img_abandoned']) {
      await h.blobs.put(`generated/${id}.png`, PNG, 'image/png');
      await h.deps.db.charges.reserve(charge(id), []);
    }
    await h.deps.db.charges.settle({ id: 'chg_img_abandoned', outcome: 'uncertain', cost_usd: 0.03, error: 'answer lost', at: '2026-11-20T10:00:01.000Z' });
    h.clock.advance(10 * (GRACE + 1) * 1000);

    expect((await reconcileBlobs(deps, { graceSeconds: GRACE })).orphans).toEqual(['generated/img_abandoned.png']);
    expect(await h.blobs.keys()).toEqual(['generated/img_awaited.png']);

    // Recorded at last, with its charge settled in the same write: still kept, now as a live image's file.
    await h.deps.db.commit([
      ...h.deps.db.images.recordWrites(row('img_awaited', { model: 'stability/core', cost: 0.03 })),
      h.deps.db.charges.settleWrite({ id: 'chg_img_awaited', outcome: 'succeeded', cost_usd: 0.03, at: '2026-11-20T10:30:00.000Z' }),
    ]);
    expect((await reconcileBlobs(deps, { graceSeconds: GRACE })).orphans).toEqual([]);
    expect(await h.blobs.keys()).toEqual(['generated/img_awaited.png']);
  });

  it('looks only under the image prefix', async () => {
    const { h, deps } = await setUp();
    await h.blobs.put('exports/report.json', PNG, 'application/json');
    h.clock.advance((GRACE + 1) * 1000);
    expect(await reconcileBlobs(deps, { graceSeconds: GRACE })).toEqual({ orphans: [], incomplete: [] });
    expect(await h.blobs.keys()).toEqual(['exports/report.json']);
  });

  it('logs no warning when there is nothing to remove', async () => {
    const { h, deps, lines } = await setUp();
    await h.blobs.put('generated/img_kept.png', PNG, 'image/png');
    await h.deps.db.images.insert(row('img_kept'));
    h.clock.advance((GRACE + 1) * 1000);
    await reconcileBlobs(deps, { graceSeconds: GRACE });
    expect(lines.filter((line) => Number(line.level) >= 40)).toEqual([]);
  });

  it('on local disk, also removes old unfinished writes and keeps a write in flight', async () => {
    const { h, lines, deps } = await setUp();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-reconcile-'));
    const blobs = createLocalBlobStore({ root, publicBaseUrl: 'http://localhost:8787/files' });
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.mkdirSync(path.join(root, INCOMING_FOLDER));
    for (const name of ['old.tmp', 'new.tmp']) fs.writeFileSync(path.join(root, INCOMING_FOLDER, name), 'partial');
    fs.utimesSync(path.join(root, INCOMING_FOLDER, 'old.tmp'), hourAgo, hourAgo);
    await blobs.put('generated/img_orphan.png', PNG, 'image/png');
    fs.utimesSync(path.join(root, 'generated', 'img_orphan.png'), hourAgo, hourAgo);

    const report = await reconcileBlobs({ ...deps, blobs, clock: systemClock }, { graceSeconds: GRACE });
    expect(report).toEqual({ orphans: ['generated/img_orphan.png'], incomplete: [`${INCOMING_FOLDER}/old.tmp`] });
    expect(fs.readdirSync(path.join(root, INCOMING_FOLDER))).toEqual(['new.tmp']);
    expect(fs.readdirSync(path.join(root, 'generated'))).toEqual([]);
    expect(lines.find((line) => line.level === 40)).toMatchObject({ removedIncomplete: 1, incomplete: [`${INCOMING_FOLDER}/old.tmp`] });
    expect(await h.blobs.keys()).toEqual([]);
  });
});
