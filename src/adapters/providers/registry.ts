import type { z } from 'zod';
import { a1111Provider } from './a1111/provider.js';
import { azureOpenAiProvider } from './azure-openai/provider.js';
import { bflProvider } from './bfl/provider.js';
import { bedrockProvider } from './bedrock/provider.js';
import { comfyUiSettings } from './comfyui/settings.js';
import { falProvider } from './fal/provider.js';
import { googleProvider } from './google/provider.js';
import { openAiProvider } from './openai/provider.js';
import { localProvider } from './procedural/provider.js';
import type { SettingsFragment } from './provider-settings.js';
import { replicateProvider } from './replicate/provider.js';
import { stabilityProvider } from './stability/provider.js';
import { workersAiProvider } from './workers-ai/provider.js';

/*
 * Adding a provider touches its folder, one line below and the docs:
 * 1. src/adapters/providers/<p>/
 *    - <p>-provider.ts: the adapter, an ImageProvider (src/ports/image-provider.ts) over `fetch`;
 *    - <p>-models.ts: its models and prices, with their sources and lifecycle dates (types: domain/models/types.ts);
 *    - provider.ts: `defineProvider({ id, settings, requires, models, create, remote })`: the environment variables it
 *      reads as a zod fragment (provider-settings.ts has the usual ones; src/config/ parses and types them from here),
 *      those that enable it, its models, and how to build the adapter from its settings;
 *    - <p>.fake.ts: a loopback fake of its API (src/test-support/loopback-server.ts), <p>.test.ts: the adapter
 *      against it, and <p>.subject.ts: its entry in the shared suite (test/contracts/providers), found there by
 *      its file name (all three left out of the build).
 * 2. Its line in PROVIDERS, in the order the catalogue lists providers.
 * 3. The docs: its row, settings and calls under Providers (docs/providers.md; CONTRIBUTING.md, "Adding a provider",
 *    says what each file holds).
 * A provider that needs Node (files, sockets), as ComfyUI does, keeps its settings apart from provider.ts
 * (comfyui/settings.ts) and goes in NODE_ONLY_SETTINGS below, and its provider in runtimes/node/providers.ts.
 */

/** The providers of every runtime, in the catalogue's order. */
export const PROVIDERS = [
  localProvider,
  workersAiProvider,
  openAiProvider,
  azureOpenAiProvider,
  replicateProvider,
  stabilityProvider,
  falProvider,
  bflProvider,
  googleProvider,
  bedrockProvider,
  a1111Provider,
] as const;

/** Settings of the providers only Node builds (runtimes/node/providers.ts), read on every runtime. */
export const NODE_ONLY_SETTINGS = [comfyUiSettings] as const;

type Shapes = (typeof PROVIDERS)[number]['settings']['shape'] | (typeof NODE_ONLY_SETTINGS)[number]['shape'];
/** `A | B` to `A & B`: the variables of all the providers at once, not of any one of them. */
type AllOf<Union> = (Union extends unknown ? (each: Union) => void : never) extends (all: infer All) => void ? All : never;

export type ProviderSettingsShape = AllOf<Shapes>;
/** Every provider's settings by environment name, as parsed: what ProviderSpec.models and .create read. */
export type ProviderEnv = z.output<z.ZodObject<ProviderSettingsShape>>;

const FRAGMENTS: readonly SettingsFragment[] = [...PROVIDERS.map((provider) => provider.settings), ...NODE_ONLY_SETTINGS];

/** Every provider's settings as one fragment, for src/config/env-schema.ts to parse with the rest of the environment. */
export const PROVIDER_SETTINGS = {
  // Each fragment's variables, merged; the type says so (Object.fromEntries cannot).
  shape: Object.fromEntries(FRAGMENTS.flatMap((fragment) => Object.entries(fragment.shape))) as ProviderSettingsShape,
  check(env: ProviderEnv, ctx: z.RefinementCtx): void {
    for (const fragment of FRAGMENTS) fragment.check?.(env, ctx);
  },
  paths: FRAGMENTS.flatMap((fragment): readonly string[] => fragment.paths ?? []),
};
