import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

const ADMIN = `ig_test_admin_${'u'.repeat(24)}`;
let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
});

async function createKey(url: string, userId?: string): Promise<string> {
  const response = await fetch(`${url}/api/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'uploads',
      permissions: ['generate', 'read'],
      plan: 'enterprise',
      rate_limit: 1_000_000,
      ...(userId === undefined ? {} : { user_id: userId }),
    }),
  });
  expect(response.status).toBe(201);
  return String(((await response.json()) as { key: string }).key);
}

/** The answer's status and, when it is not 201, its body; or how the request failed (the server cut it off). */
const upload = async (url: string, key: string, png: Blob, name: string): Promise<number | string> => {
  const form = new FormData();
  form.append('file', png, name);
  try {
    const response = await fetch(`${url}/api/uploads`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: form });
    const body = await response.text();
    return response.status === 201 ? 201 : `${response.status} ${body}`;
  } catch (error) {
    return `${name} failed: ${error instanceof Error ? `${error.message} (${String((error.cause as Error | undefined)?.message)})` : String(error)}`;
  }
};

describe('uploads under load, on a real server process', () => {
  it("stores twenty concurrent 48 MB uploads of one key, and another user's small upload meanwhile, leaving no staged file", { timeout: 240_000 }, async () => {
    const dataDir = tempDataDir();
    server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN });
    const { url } = server;
    const [heavy, other] = [await createKey(url), await createKey(url, 'other-tenant')];
    // Noise does not compress: 4000 x 4000 RGB is a PNG of about 48 MB, under the 50 MB limit.
    const noise = await sharp(randomBytes(4000 * 4000 * 3), { raw: { width: 4000, height: 4000, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const big = new Blob([new Uint8Array(noise)], { type: 'image/png' });
    const small = new Blob(
      [
        new Uint8Array(
          await sharp(randomBytes(64 * 64 * 3), { raw: { width: 64, height: 64, channels: 3 } })
            .png()
            .toBuffer(),
        ),
      ],
      { type: 'image/png' },
    );

    let bigsDone = 0;
    const bigs = Promise.all(Array.from({ length: 20 }, (_, i) => upload(url, heavy, big, `big-${i}.png`).finally(() => (bigsDone += 1))));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const otherStatus = await upload(url, other, small, 'small.png');
    const bigsDoneBeforeOther = bigsDone;
    const statuses = await bigs;

    // What the server said, should one of them not be stored: a cut-off request leaves no status to go by.
    expect(statuses, server.output().slice(-4000)).toEqual(Array.from({ length: 20 }, () => 201));
    expect(otherStatus).toBe(201);
    // Served in its turn, not behind the twenty: most of the first key's uploads were still running.
    expect(bigsDoneBeforeOther).toBeLessThan(10);
    expect(fs.readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
  });
});
