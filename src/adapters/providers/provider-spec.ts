import type { z } from 'zod';
import type { ModelDefinition } from '../../domain/models/types.js';
import type { ImageProvider } from '../../ports/image-provider.js';
import type { CpuPool } from '../cpu/cpu-pool.js';
import type { SettingsFragment, SettingsOf } from './provider-settings.js';
import type { ProviderEnv } from './registry.js';

/**
 * The image work the offline model and mask conversions need: the CPU pool's threads on Node, done inline where
 * there are no threads (Workers). Only the type is imported here, so the registry stays runtime-neutral.
 */
export type OfflineImageWork = Pick<CpuPool, 'render' | 'edit' | 'inpaintMask'>;

/** What every provider is built with: the remote ones' shared settings (PROVIDER_*), the runtime's image work. */
export interface SharedSettings {
  timeoutMs: number;
  /** Where the offline model draws (the process's worker threads on Node). */
  cpu: OfflineImageWork;
}

/**
 * What the service knows about one provider: the settings that enable it, its models, how to build it. `Env` is
 * the settings it reads; every provider's (ProviderEnv) by default.
 */
export interface ProviderSpec<Env = ProviderEnv> {
  id: string;
  /** How people call it, for the catalogue's `provider_name` (the web app's model picker groups by it). */
  name: string;
  /** Every one of these must be set to enable the provider. */
  requires: readonly (keyof Env)[];
  models: (env: Env) => readonly ModelDefinition[];
  /** `parametersOf` says what each of this provider's models accepts, from its catalogue entries. */
  create: (env: Env, fetchImpl: typeof fetch, parametersOf: (providerModel: string) => ReadonlySet<string>, shared: SharedSettings) => ImageProvider;
  /** Remote providers get timeouts, retries, a concurrency cap and a breaker. */
  remote: boolean;
}

/** A provider as its folder declares it (provider.ts): its spec, typed by the settings it reads, and those settings. */
export interface ProviderDefinition<Shape extends z.ZodRawShape> extends Omit<ProviderSpec<SettingsOf<Shape>>, 'requires'> {
  settings: SettingsFragment<Shape>;
  /** Named from its own settings (none for a provider that reads none). */
  requires: readonly (keyof Shape & string)[];
}

export const defineProvider = <Shape extends z.ZodRawShape>(definition: ProviderDefinition<Shape>): ProviderDefinition<Shape> => definition;

/** A setting `requires` names: set whenever the adapter is built. */
export const must = (value: string | undefined): string => value ?? '';

/**
 * Settings that parse but point at something unusable (a folder of broken workflow files): thrown by a spec's
 * `models` or `create`, it stops start-up with the same message as a bad setting (buildProviderSet).
 */
export class ProviderSettingsError extends Error {
  override readonly name = 'ProviderSettingsError';
}
