import type { Config } from '../../config.js';
import { createModelCatalog } from '../../domain/models/catalog.js';
import { buildProviderSet } from '../../providers.js';
import type { CliIo } from './keys.js';

export const MODELS_USAGE = `Usage:
  imagegate models [--all]

Lists the models the providers configured in this environment can run, with their cost at default
settings. --all also lists the ones whose provider is not configured, and the settings that enable it.`;

/** The catalogue as this environment sees it, without a server or a key: what `generate --model` accepts. */
export function modelsCommand(config: Config, argv: string[], io: CliIo): number {
  const unknown = argv.filter((arg) => arg !== '--all');
  if (unknown.length > 0) {
    io.err(`imagegate models: unknown argument ${JSON.stringify(unknown[0])}\n\n${MODELS_USAGE}`);
    return 2;
  }
  const all = argv.includes('--all');
  const { models, statusOf } = buildProviderSet(config);
  const entries = createModelCatalog(models, statusOf)
    .list()
    .filter((entry) => all || entry.available);
  const width = Math.max(...entries.map((entry) => entry.id.length), 'MODEL'.length);
  io.out(`${'MODEL'.padEnd(width)}  ${'DEFAULT SIZE'.padEnd(12)}  ${'COST'.padEnd(10)}  ${all ? 'AVAILABLE' : ''}`.trimEnd());
  for (const entry of entries) {
    const size = `${entry.default_width}x${entry.default_height}`;
    const availability = entry.available ? 'yes' : `no: ${entry.unavailable_reason ?? 'not configured'}`;
    io.out(`${entry.id.padEnd(width)}  ${size.padEnd(12)}  ${`$${entry.cost_per_image}`.padEnd(10)}  ${all ? availability : ''}`.trimEnd());
  }
  return 0;
}
