import { defineSettings } from '../provider-settings.js';
import { defineProvider } from '../provider-spec.js';
import { proceduralModel } from './model.js';
import { createProceduralProvider } from './procedural-provider.js';

/** The offline model: no settings, always there, drawn on the runtime's CPU. */
export const localProvider = defineProvider({
  id: 'local',
  name: 'Offline',
  settings: defineSettings({ shape: {} }),
  requires: [],
  models: () => [proceduralModel],
  create: (_env, _fetch, _parametersOf, shared) => createProceduralProvider(shared.cpu),
  remote: false,
});
