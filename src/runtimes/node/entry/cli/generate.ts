import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Config } from '../../../../config/config.js';
import { ApiError } from '../../../../domain/errors.js';
import { planGeneration } from '../../../../domain/images/plan-generation.js';
import { renderImage } from '../../../../domain/images/render-image.js';
import { openCliRuntime } from './cli-database.js';
import type { CliIo } from './cli-io.js';

export const GENERATE_USAGE = `Usage:
  imagegate generate "<prompt>" --model <id> [--out file.png] [--width N] [--height N] [--seed N]
                     [--steps N] [--guidance X] [--negative-prompt "..."] [--template <id>]

Runs one prompt on a model with the providers configured in the environment and writes the PNG.
Nothing is recorded in the gallery. List the models with: imagegate models`;

const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));

export async function generateCommand(config: Config, argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      out: { type: 'string' },
      width: { type: 'string' },
      height: { type: 'string' },
      seed: { type: 'string' },
      steps: { type: 'string' },
      guidance: { type: 'string' },
      'negative-prompt': { type: 'string' },
      template: { type: 'string' },
    },
  });
  const prompt = positionals.join(' ').trim();
  if (prompt === '' && values.template === undefined) {
    io.err(GENERATE_USAGE);
    return 2;
  }
  // The database is read for templates only; nothing is recorded, and the image is kept in memory.
  const runtime = await openCliRuntime(config, io);
  const { deps } = runtime;
  try {
    const plan = await planGeneration(deps, 'admin', {
      prompt: prompt === '' ? undefined : prompt,
      model: values.model,
      template_id: values.template,
      width: number(values.width),
      height: number(values.height),
      seed: number(values.seed),
      steps: number(values.steps),
      guidance: number(values.guidance),
      negative_prompt: values['negative-prompt'],
    });
    const started = Date.now();
    const id = deps.ids.newId('img');
    const { row, charge } = await renderImage(deps, { userId: 'admin', requestId: 'cli' }, plan, id);
    // No image record, but a paid call is still a charge in the ledger.
    if (charge !== undefined) await deps.db.charges.settle(charge);
    const stored = await deps.blobs.get(row.r2_key);
    const out = values.out ?? `${id}.png`;
    await fs.writeFile(out, stored?.bytes ?? new Uint8Array());
    io.out(
      `Wrote ${out}: ${row.width}x${row.height} PNG from ${row.model}, seed ${String(row.parameters.seed ?? '-')}, cost $${row.cost}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const details = typeof error.details === 'object' && typeof error.details.message === 'string' ? `: ${error.details.message}` : '';
    io.err(`imagegate generate: ${error.message}${details}`);
    return 1;
  } finally {
    await runtime.close();
  }
}
