import type { Config } from '../../../../config/config.js';
import { catalogView, createModelCatalog } from '../../../../domain/models/catalog.js';
import type { ProviderCheck } from '../../../../ports/image-provider.js';
import { buildNodeProviderSet } from '../../providers.js';
import type { CliIo } from './cli-io.js';

export const MODELS_USAGE = `Usage:
  imagegate models [--all]
  imagegate models --check

Lists the models the providers configured in this environment can run, with their cost at default
settings. --all also lists the ones whose provider is not configured, and the settings that enable it.
--check calls each configured provider's cheapest read-only endpoint (a model list or the account) to
verify its address and credentials without generating anything; it exits 1 when one fails.`;

/** The catalogue as this environment sees it, without a server or a key: what `generate --model` accepts. */
export function modelsCommand(config: Config, argv: string[], io: CliIo, options: { fetch?: typeof fetch; now?: () => Date } = {}): number | Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--all' && arg !== '--check');
  if (unknown.length > 0 || (argv.includes('--check') && argv.includes('--all'))) {
    io.err(
      `imagegate models: ${unknown.length > 0 ? `unknown argument ${JSON.stringify(unknown[0])}` : '--check and --all do not go together'}\n\n${MODELS_USAGE}`,
    );
    return 2;
  }
  if (argv.includes('--check')) return checkProviders(config, io, options.fetch);
  const all = argv.includes('--all');
  const now = (options.now ?? (() => new Date()))();
  const { models, statusOf } = buildNodeProviderSet(config);
  const entries = createModelCatalog(models, statusOf)
    .list()
    .map((entry) => catalogView(entry, now))
    .filter((entry) => all || entry.available);
  const width = Math.max(...entries.map((entry) => entry.id.length), 'MODEL'.length);
  io.out(`${'MODEL'.padEnd(width)}  ${'DEFAULT SIZE'.padEnd(12)}  ${'COST'.padEnd(10)}  ${all ? 'AVAILABLE' : ''}`.trimEnd());
  for (const entry of entries) {
    const size = `${entry.default_width}x${entry.default_height}`;
    const availability = entry.available ? 'yes' : `no: ${entry.unavailable_reason ?? 'not configured'}`;
    const note = entry.lifecycle === 'deprecated' && entry.warning !== undefined ? `  (${entry.warning})` : '';
    io.out(`${`${entry.id.padEnd(width)}  ${size.padEnd(12)}  ${`$${entry.cost_per_image}`.padEnd(10)}  ${all ? availability : ''}`.trimEnd()}${note}`);
  }
  return 0;
}

/** One line per configured provider: its check endpoint and what it answered; exit 1 if any failed. */
async function checkProviders(config: Config, io: CliIo, fetchImpl?: typeof fetch): Promise<number> {
  const { providers } = buildNodeProviderSet(config, fetchImpl === undefined ? {} : { fetch: fetchImpl });
  const results = await Promise.all(
    [...providers.values()].map(async (provider): Promise<[string, ProviderCheck]> => {
      if (provider.check === undefined) return [provider.id, { ok: true, endpoint: 'built in', detail: 'nothing to check' }];
      return [provider.id, await provider.check()];
    }),
  );
  const width = Math.max(...results.map(([id]) => id.length), 'PROVIDER'.length);
  io.out(`${'PROVIDER'.padEnd(width)}  ${'RESULT'.padEnd(6)}  CHECKED`);
  for (const [id, check] of results) io.out(`${id.padEnd(width)}  ${(check.ok ? 'ok' : 'FAILED').padEnd(6)}  ${check.endpoint}: ${check.detail}`);
  const failed = results.filter(([, check]) => !check.ok).length;
  if (failed > 0) io.err(`imagegate models --check: ${failed} of ${results.length} providers failed their check`);
  return failed > 0 ? 1 : 0;
}
