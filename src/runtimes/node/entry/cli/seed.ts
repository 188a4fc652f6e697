import { parseArgs } from 'node:util';
import type { Config } from '../../../../config/config.js';
import type { Deps } from '../../../../domain/context.js';
import { imageKey } from '../../../../domain/images/image-record.js';
import type { ImageRow } from '../../../../ports/database.js';
import { openCliRuntime } from './cli-database.js';
import type { CliIo } from './cli-io.js';

export const SEED_USAGE = `Usage:
  imagegate seed --images <N> [--user <user_id>] [--days <D>]

Fills the database with N synthetic image records for benchmarks and demos, through the same repository
writes as generation (counters and daily rollups included). Every record points at one shared placeholder
PNG, so a million-image gallery takes minutes and one object. --user defaults to admin (the admin key's
user), --days (default 365) spreads the images evenly over that many days up to now.`;

const CHUNK = 2_000;
const SUBJECTS = ['a lighthouse', 'a red fox', 'a mountain lake', 'a desert city', 'a forest at night', 'a harbour', 'snowy peaks', 'a blue whale'];
const MOODS = ['at dawn', 'at sunset', 'in the fog', 'under a full moon', 'in spring', 'after the rain'];

/** A placeholder rendered once by the offline model, so every seeded record has a real picture behind its URL. */
async function placeholder(deps: Deps): Promise<string> {
  const provider = deps.providers.get('local');
  if (provider === undefined) throw new Error('the offline model is missing');
  const { bytes } = await provider.generate({ providerModel: 'procedural', prompt: 'a placeholder landscape', width: 256, height: 256, seed: 1 });
  const key = imageKey('img_seed_placeholder');
  await deps.blobs.put(key, bytes, 'image/png');
  return key;
}

export async function seedCommand(config: Config, argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { images: { type: 'string' }, user: { type: 'string' }, days: { type: 'string' } } });
  const count = Number(values.images);
  const days = Number(values.days ?? '365');
  if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(days) || days < 1) {
    io.err(`imagegate seed: --images and --days must be whole numbers of 1 or more\n\n${SEED_USAGE}`);
    return 2;
  }
  const userId = values.user ?? 'admin';
  // Images go where the server keeps them, so their URLs work: the configured store, not memory.
  const runtime = await openCliRuntime(config, io, { storage: 'configured' });
  const { deps } = runtime;
  try {
    const key = await placeholder(deps);
    const models = deps.catalog.list().slice(0, 6);
    const now = deps.clock.now().getTime();
    const step = (days * 86_400_000) / count;
    const started = Date.now();
    for (let start = 0; start < count; start += CHUNK) {
      const rows: ImageRow[] = [];
      for (let i = start; i < Math.min(count, start + CHUNK); i += 1) {
        const model = models[i % models.length];
        if (model === undefined) continue;
        rows.push({
          id: deps.ids.newId('img'),
          user_id: userId,
          prompt: `${SUBJECTS[i % SUBJECTS.length]} ${MOODS[(i >> 3) % MOODS.length]}, seeded #${i}`,
          model: model.id,
          r2_key: key,
          width: model.default_width,
          height: model.default_height,
          cost: model.cost_per_image,
          is_deleted: false,
          // Oldest first, so ids and timestamps grow together as in real use.
          created_at: new Date(now - (count - i) * step).toISOString(),
          deleted_at: null,
          template_id: null,
          metadata: { seeded: true },
          parameters: { width: model.default_width, height: model.default_height, seed: i },
        });
      }
      await deps.db.images.insertMany(rows);
      const done = Math.min(count, start + CHUNK);
      if (done === count || (done / CHUNK) % 25 === 0) {
        const seconds = (Date.now() - started) / 1000;
        io.err(
          `imagegate seed: ${done.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} images (${Math.round(done / Math.max(seconds, 0.001)).toLocaleString('en-US')}/s)`,
        );
      }
    }
    io.out(`Seeded ${count.toLocaleString('en-US')} images for user ${userId} over ${days} days; every one shows ${deps.blobs.publicUrl(key)}`);
    return 0;
  } finally {
    await runtime.close();
  }
}
