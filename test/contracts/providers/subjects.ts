/// <reference types="vite/client" />
import { PROVIDERS } from '../../../src/adapters/providers/registry.js';
import type { ProviderSubject } from '../../../src/test-support/provider-subject.js';

export type { JobFlow, ProviderSubject } from '../../../src/test-support/provider-subject.js';

/**
 * Every provider's subject, from its own folder (`src/adapters/providers/<p>/<p>.subject.ts`): adding a provider adds
 * it to the shared suite without touching this file. In the catalogue's order, the Node-only ones (ComfyUI) last.
 */
const found = Object.values(import.meta.glob<{ subject: ProviderSubject }>('../../../src/adapters/providers/*/*.subject.ts', { eager: true })).map(
  (module) => module.subject,
);
const order = (subject: ProviderSubject): number => {
  const index = PROVIDERS.findIndex((provider) => provider.id === subject.providerId);
  return index < 0 ? PROVIDERS.length : index;
};

export const subjects: ProviderSubject[] = found.sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name));
