import type { CpuPool } from './adapters/cpu/cpu-pool.js';
import { proceduralModel } from './adapters/providers/procedural/model.js';
import { createProceduralProvider } from './adapters/providers/procedural/procedural-provider.js';
import { withResilience } from './adapters/providers/resilience/resilient-provider.js';
import { DEFAULT_RESILIENCE } from './adapters/providers/resilience/resilient-provider.js';
import { createA1111Provider } from './adapters/providers/a1111/a1111-provider.js';
import { createFalProvider } from './adapters/providers/fal/fal-provider.js';
import { createOpenAiProvider } from './adapters/providers/openai/openai-provider.js';
import { createReplicateProvider } from './adapters/providers/replicate/replicate-provider.js';
import { createStabilityProvider } from './adapters/providers/stability/stability-provider.js';
import { createWorkersAiProvider } from './adapters/providers/workers-ai/workers-ai-provider.js';
import type { Config, ProviderEnv } from './config.js';
import type { ProviderStatus } from './domain/models/catalog.js';
import { a1111Models } from './domain/models/catalog/a1111.js';
import { falModels } from './domain/models/catalog/fal.js';
import { openAiModels } from './domain/models/catalog/openai.js';
import { replicateModels } from './domain/models/catalog/replicate.js';
import { stabilityModels } from './domain/models/catalog/stability.js';
import { workersAiModels } from './domain/models/catalog/workers-ai.js';
import type { ModelDefinition } from './domain/models/types.js';
import type { ImageProvider } from './ports/image-provider.js';
import type { Metrics } from './ports/metrics.js';

/** What the service knows about one provider: the settings that enable it, its models, how to build it. */
export interface ProviderSpec {
  id: string;
  /** Every one of these must be set to enable the provider. */
  requires: readonly (keyof ProviderEnv)[];
  models: (env: ProviderEnv) => readonly ModelDefinition[];
  /** `parametersOf` says what each of this provider's models accepts, from its catalogue entries. */
  create: (env: ProviderEnv, fetchImpl: typeof fetch, parametersOf: (providerModel: string) => ReadonlySet<string>, settings: ProviderSettings) => ImageProvider;
  /** Remote providers get timeouts, retries, a concurrency cap and a breaker. */
  remote: boolean;
}

/**
 * The image work the offline model and mask conversions need: the CPU pool's threads on Node, done inline where
 * there are no threads (Workers). Only the type is imported here, so this registry stays runtime-neutral.
 */
export type OfflineImageWork = Pick<CpuPool, 'render' | 'edit' | 'inpaintMask'>;

/** What every provider is built with: the remote ones' shared settings (PROVIDER_*), the runtime's image work. */
export interface ProviderSettings {
  timeoutMs: number;
  /** Where the offline model draws (the process's worker threads on Node). */
  cpu: OfflineImageWork;
}

export const must = (value: string | undefined): string => value ?? '';

/** What each provider model accepts, from the catalogue, so adapters send only what the model takes. */
export const parametersFrom =
  (models: readonly ModelDefinition[]) =>
  (providerModel: string): ReadonlySet<string> =>
    new Set<string>(models.find((model) => model.provider_model === providerModel)?.parameters ?? []);

/**
 * The providers every runtime has: the offline model and the ones reached over `fetch`. A runtime adds its own
 * (Node adds ComfyUI, whose workflows are files and whose progress comes over a WebSocket: runtimes/node/providers.ts).
 */
export const PROVIDER_SPECS: readonly ProviderSpec[] = [
  { id: 'local', requires: [], models: () => [proceduralModel], create: (_env, _fetch, _parametersOf, settings) => createProceduralProvider(settings.cpu), remote: false },
  {
    id: 'workers-ai',
    requires: ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN'],
    models: () => workersAiModels,
    create: (env, fetchImpl, parametersOf, settings) =>
      createWorkersAiProvider(
        {
          accountId: must(env.CLOUDFLARE_ACCOUNT_ID),
          apiToken: must(env.CLOUDFLARE_API_TOKEN),
          baseUrl: env.CLOUDFLARE_API_BASE_URL,
          fetch: fetchImpl,
          timeoutMs: settings.timeoutMs,
          convertMask: (mask, signal) => settings.cpu.inpaintMask(mask.bytes, { signal }),
        },
        parametersOf,
      ),
    remote: true,
  },
  {
    id: 'openai',
    requires: ['OPENAI_API_KEY'],
    models: () => openAiModels,
    create: (env, fetchImpl) => createOpenAiProvider({ apiKey: must(env.OPENAI_API_KEY), baseUrl: env.OPENAI_BASE_URL, fetch: fetchImpl }),
    remote: true,
  },
  {
    id: 'replicate',
    requires: ['REPLICATE_API_TOKEN'],
    models: () => replicateModels,
    create: (env, fetchImpl, parametersOf, settings) =>
      createReplicateProvider({ apiToken: must(env.REPLICATE_API_TOKEN), baseUrl: env.REPLICATE_BASE_URL, fetch: fetchImpl, cancelAfterMs: settings.timeoutMs }, parametersOf),
    remote: true,
  },
  {
    id: 'stability',
    requires: ['STABILITY_API_KEY'],
    models: () => stabilityModels,
    create: (env, fetchImpl, parametersOf, settings) =>
      createStabilityProvider({ apiKey: must(env.STABILITY_API_KEY), baseUrl: env.STABILITY_BASE_URL, fetch: fetchImpl, masks: settings.cpu }, parametersOf),
    remote: true,
  },
  {
    id: 'fal',
    requires: ['FAL_KEY'],
    models: () => falModels,
    create: (env, fetchImpl, parametersOf) => createFalProvider({ apiKey: must(env.FAL_KEY), baseUrl: env.FAL_BASE_URL, fetch: fetchImpl }, parametersOf),
    remote: true,
  },
  {
    id: 'a1111',
    requires: ['A1111_BASE_URL'],
    models: (env) => a1111Models(env.A1111_MODELS),
    create: (env, fetchImpl, parametersOf) =>
      createA1111Provider({ baseUrl: must(env.A1111_BASE_URL), username: env.A1111_USERNAME, password: env.A1111_PASSWORD, fetch: fetchImpl }, parametersOf),
    remote: true,
  },
];

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
  return { ...set, providers, statusOf: (id) => (providers.has(id) ? { available: true } : set.statusOf(id)) };
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
  const models: ModelDefinition[] = [];
  const { cpu } = options;
  for (const spec of specs) {
    const own = spec.models(env);
    models.push(...own);
    const unset = spec.requires.filter((name) => env[name] === undefined);
    if (unset.length > 0) {
      missing.set(spec.id, [...unset]);
      continue;
    }
    const adapter = spec.create(env, options.fetch ?? fetch, parametersFrom(own), { timeoutMs: config.providers.timeoutMs, cpu });
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
      if (providers.has(provider)) return { available: true };
      const unset = missing.get(provider) ?? [];
      return { available: false, reason: unset.length > 0 ? `set ${unset.join(' and ')} to enable provider ${provider}` : `provider ${provider} is not configured` };
    },
  };
}
