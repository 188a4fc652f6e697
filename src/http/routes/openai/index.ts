import type { RegisterRoutes } from '../types.js';
import { registerOpenAiGenerate } from './generate.js';
import { registerOpenAiModels } from './models.js';

/** OpenAI's API shape under /v1, over the same domain verbs, keys, permissions and limits as /api. */
export const registerOpenAiRoutes: RegisterRoutes = (app, deps) => {
  registerOpenAiGenerate(app, deps);
  registerOpenAiModels(app, deps);
};
