import { withResilience } from './adapters/providers/resilience/resilient-provider.js';
import { DEFAULT_RESILIENCE } from './adapters/providers/resilience/resilient-provider.js';
import { ProviderSettingsError, type OfflineImageWork, type ProviderSpec } from './adapters/providers/provider-spec.js';
import { PROVIDERS } from './adapters/providers/registry.js';
import { ConfigError, type Config } from './config/config.js';
import type { ProviderStatus } from './domain/models/catalog.js';
import type { ModelDefinition } from './domain/models/types.js';
import type { ImageProvider } from './ports/image-provider.js';
import type { Metrics } from './ports/metrics.js';

/** What each provider model accepts, from the catalogue, so adapters send only what the model takes. */
export const parametersFrom =
  (models: readonly ModelDefinition[]) =>
  (providerModel: string): ReadonlySet<string> =>
    new Set<string>(models.find((model) => model.provider_model === providerModel)?.parameters ?? []);

/**
 * The providers every runtime has (the registry's: src/adapters/providers/registry.ts). A runtime adds its own
 * (Node adds ComfyUI, whose workflows are files and whose progress comes over a WebSocket: runtimes/node/providers.ts).
 */
export const PROVIDER_SPECS: readonly ProviderSpec[] = PROVIDERS;

export interface ProviderSet {
  providers: Map<string, ImageProvider>;
  models: ModelDefinition[];
  statusOf: (provider: string) => ProviderStatus;
}

/**
 * The set with the given providers in place of (or beside) its own, each counting as configured: a test's stand-ins,
 * on Node and on Workers alike.
 */
export function withProviders(set: ProviderSet, given: Readonly<Record<string, ImageProvider>> = {}): ProviderSet {
  const providers = new Map(set.providers);
  for (const [id, provider] of Object.entries(given)) providers.set(id, provider);
  return {
    ...set,
    providers,
    statusOf: (id) => {
      const status = set.statusOf(id);
      return providers.has(id) ? { available: true, ...(status.name === undefined ? {} : { name: status.name }) } : status;
    },
  };
}

/** Settings a provider finds unusable (ProviderSettingsError) stop start-up as a bad setting does. */
function stopOnBadSettings<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof ProviderSettingsError) throw new ConfigError(`Invalid configuration:\n  ${error.message}`);
    throw error;
  }
}

/** The one place providers are chosen: each is enabled by its own settings and wrapped for resilience. */
export function buildProviderSet(
  config: Pick<Config, 'providerEnv' | 'providers'>,
  options: { fetch?: typeof fetch; specs?: readonly ProviderSpec[]; cpu: OfflineImageWork; metrics?: Metrics },
): ProviderSet {
  const env = config.providerEnv;
  const specs = options.specs ?? PROVIDER_SPECS;
  const providers = new Map<string, ImageProvider>();
  const missing = new Map<string, string[]>();
  const names = new Map(specs.map((spec) => [spec.id, spec.name]));
  const models: ModelDefinition[] = [];
  const { cpu } = options;
  for (const spec of specs) {
    const own = stopOnBadSettings(() => spec.models(env));
    models.push(...own);
    const unset = spec.requires.filter((name) => env[name] === undefined);
    if (unset.length > 0) {
      missing.set(spec.id, [...unset]);
      continue;
    }
    const adapter = stopOnBadSettings(() => spec.create(env, options.fetch ?? fetch, parametersFrom(own), { timeoutMs: config.providers.timeoutMs, cpu }));
    providers.set(
      spec.id,
      spec.remote
        ? withResilience(adapter, {
            ...DEFAULT_RESILIENCE,
            timeoutMs: config.providers.timeoutMs,
            retries: config.providers.retries,
            maxConcurrent: config.providers.maxConcurrent,
            metrics: options.metrics,
          })
        : adapter,
    );
  }
  return {
    providers,
    models,
    statusOf: (provider) => {
      const name = names.get(provider) ?? provider;
      if (providers.has(provider)) return { available: true, name };
      const unset = missing.get(provider) ?? [];
      return {
        name,
        available: false,
        reason: unset.length > 0 ? `set ${unset.join(' and ')} to enable provider ${provider}` : `provider ${provider} is not configured`,
      };
    },
  };
}
