import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { MAX_UPLOAD_BYTES } from '../../src/domain/inputs/input-limits.js';
import { ROOT } from '../support/build.js';
import { sleep, type ScenarioContext } from '../support/context.js';
import { bearer } from '../support/fixtures.js';
import type { BenchResult } from '../support/results.js';
import { ADMIN_KEY, startImagegate, tempDir, type BenchServer } from '../support/server.js';
import { ms } from '../support/stats.js';

const UPLOADS = 20;
const SMALL_TRIES = 5;
/** The hostile test's second case: twelve small files whose headers say 8192 x 8192 (67 megapixels) each. */
const HUGE_DECODES = 12;

/** A real photograph (a film still, 1169 x 584 JPEG) that ships with autocannon, a dev dependency. */
const PHOTO = path.join(ROOT, 'node_modules/autocannon/test/j5.jpeg');

/**
 * The photo enlarged, with a faint film grain as a camera's sensor leaves (a lossless PNG of a real photo is that
 * noisy; an enlargement alone is smoother, and compresses far better than any real 50 MB PNG), to just under 50 MB.
 */
async function bigPhotoPng(cacheFile: string): Promise<Buffer> {
  if (fs.existsSync(cacheFile)) return fs.readFileSync(cacheFile);
  const tile = 509;
  const grain = Buffer.alloc(tile * tile * 3);
  let seed = 7;
  for (let i = 0; i < grain.length; i += 1) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    grain[i] = 127 + ((seed >>> 24) % 3);
  }
  const grainPng = await sharp(grain, { raw: { width: tile, height: tile, channels: 3 } })
    .png()
    .toBuffer();
  for (let width = 7300; ; width = Math.round(width * 0.95)) {
    const height = Math.round((width * 584) / 1169);
    const png = await sharp(PHOTO)
      .resize(width, height, { kernel: 'lanczos3' })
      .composite([{ input: grainPng, tile: true, blend: 'soft-light' }])
      .png({ compressionLevel: 6 })
      .toBuffer();
    if (png.length <= MAX_UPLOAD_BYTES) {
      fs.writeFileSync(cacheFile, png);
      return png;
    }
  }
}

async function createKey(server: BenchServer, userId?: string): Promise<string> {
  const response = await fetch(`${server.url}/api/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'uploads',
      permissions: ['generate', 'read'],
      plan: 'enterprise',
      rate_limit: 1_000_000,
      ...(userId === undefined ? {} : { user_id: userId }),
    }),
  });
  const body = (await response.json()) as { key?: unknown };
  if (response.status !== 201 || typeof body.key !== 'string') throw new Error(`POST /api/keys answered ${response.status}: ${JSON.stringify(body)}`);
  return body.key;
}

/** One upload; its status and milliseconds. */
async function upload(server: BenchServer, key: string, png: Blob, name: string): Promise<{ status: number; ms: number }> {
  const form = new FormData();
  form.append('file', png, name);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/uploads`, { method: 'POST', headers: bearer(key), body: form });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

/** The other tenant's small uploads, one after another, while `busy` says the first tenant's are still running. */
async function smallUploadsDuring(server: BenchServer, key: string, png: Blob, busy: () => boolean): Promise<{ status: number; ms: number }[]> {
  const tries: { status: number; ms: number }[] = [];
  while (tries.length < SMALL_TRIES && busy()) {
    tries.push(await upload(server, key, png, 'small.png'));
    await sleep(300);
  }
  return tries;
}

/**
 * Scenario `uploads` (issue 31, finding 2): twenty concurrent 50 MB photo uploads from one key, with the server's RSS
 * watched, and another user's 64 x 64 upload timed meanwhile; then twelve tiny PNGs that decode to 67 megapixels each.
 */
export async function uploads({ cache }: ScenarioContext): Promise<BenchResult[]> {
  console.log(`\n# Uploads: ${UPLOADS} concurrent 50 MB photo PNGs from one key, another user's 64x64 upload meanwhile`);
  const bigBytes = await bigPhotoPng(path.join(cache.dir('uploads'), 'photo-50mb.png'));
  const size = await sharp(bigBytes).metadata();
  const big = new Blob([new Uint8Array(bigBytes)], { type: 'image/png' });
  const small = new Blob([new Uint8Array(await sharp(PHOTO).extract({ left: 500, top: 200, width: 64, height: 64 }).png().toBuffer())], { type: 'image/png' });
  // 67 megapixels of one colour: the hostile case, a file of a few hundred kilobytes that takes seconds to decode.
  const hugeBytes = await sharp({ create: { width: 8192, height: 8192, channels: 3, background: '#6b8e23' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  const huge = new Blob([new Uint8Array(hugeBytes)], { type: 'image/png' });
  console.log(`  fixture: ${(big.size / 1e6).toFixed(1)} MB PNG (${size.width}x${size.height}); hostile: ${(huge.size / 1e3).toFixed(0)} kB PNG of 8192x8192`);

  const server = await startImagegate({ DATA_DIR: tempDir('uploads') });
  let watch: NodeJS.Timeout | undefined;
  try {
    const heavy = await createKey(server);
    const other = await createKey(server, 'bench-other-tenant');
    // Warm: the CPU pool's thread and sharp started, so the baseline is a warm small upload.
    await upload(server, other, small, 'warm.png');
    await sleep(1000);
    const alone: number[] = [];
    for (let i = 0; i < SMALL_TRIES; i += 1) alone.push((await upload(server, other, small, 'small.png')).ms);
    const idle = server.rssMb();
    let peak = idle;
    watch = setInterval(() => (peak = Math.max(peak, server.rssMb())), 100);

    let running = true;
    const started = performance.now();
    const bigs = Promise.all(Array.from({ length: UPLOADS }, (_, i) => upload(server, heavy, big, `photo-${i}.png`))).finally(() => (running = false));
    await sleep(1500);
    const during = await smallUploadsDuring(server, other, small, () => running);
    const results = await bigs;
    const wall = performance.now() - started;
    clearInterval(watch);
    const rise = peak - idle;
    const ok = results.filter((r) => r.status === 201).length;
    const worst = Math.max(...during.map((r) => r.ms));
    const baseline = alone.sort((a, b) => a - b)[Math.floor(alone.length / 2)] ?? 0;
    const duringOk = during.length > 0 && during.every((r) => r.status === 201);
    console.log(
      `  RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (+${rise.toFixed(0)} MB); ${ok}/${UPLOADS} answered 201 in ${(wall / 1000).toFixed(1)} s`,
    );
    console.log(`  other user's 64x64 upload: alone ${ms(baseline)}, during ${during.map((r) => `${r.status} ${ms(r.ms)}`).join(', ')}`);

    // The hostile decodes: twelve at once from the heavy key, the other user's small upload meanwhile.
    running = true;
    const hostile = Promise.all(Array.from({ length: HUGE_DECODES }, (_, i) => upload(server, heavy, huge, `huge-${i}.png`))).finally(() => (running = false));
    await sleep(300);
    const duringHuge = await smallUploadsDuring(server, other, small, () => running);
    const hostileResults = await hostile;
    const worstHuge = Math.max(...duringHuge.map((r) => r.ms));
    console.log(
      `  ${HUGE_DECODES} x 67-megapixel PNGs: ${hostileResults.filter((r) => r.status === 201).length} stored; other user's upload during ${duringHuge.map((r) => `${r.status} ${ms(r.ms)}`).join(', ')}`,
    );

    return [
      {
        scenario: `Uploads: RSS with ${UPLOADS} concurrent 50 MB photo uploads of one key`,
        measured: `+${rise.toFixed(0)} MB (idle ${idle.toFixed(0)} → peak ${peak.toFixed(0)} MB); ${ok}/${UPLOADS} stored in ${(wall / 1000).toFixed(1)} s`,
        target: '≤ +1 GB, all stored',
        met: rise <= 1024 && ok === UPLOADS,
        details: { idleMb: idle, peakMb: peak, statuses: results.map((r) => r.status), wallMs: wall, fixtureBytes: big.size },
      },
      {
        scenario: "Uploads: another user's 64x64 upload during them",
        measured: `worst ${ms(worst)} of ${during.length} (alone ${ms(baseline)}: ${(worst / baseline).toFixed(0)}x)`,
        target: '≤ 1 s, stored',
        met: duringOk && worst <= 1000,
        details: { alone, during },
      },
      {
        scenario: `Uploads: another user's 64x64 upload during ${HUGE_DECODES} 67-megapixel decodes`,
        measured: `worst ${ms(worstHuge)} of ${duringHuge.length} (alone ${ms(baseline)})`,
        target: '≤ 1 s, stored',
        met: duringHuge.length > 0 && duringHuge.every((r) => r.status === 201) && worstHuge <= 1000,
        details: { during: duringHuge, hostileStatuses: hostileResults.map((r) => r.status) },
      },
    ];
  } catch (error) {
    console.error(`  server output:\n${server.output()}`);
    throw error;
  } finally {
    clearInterval(watch);
    await server.stop();
  }
}
