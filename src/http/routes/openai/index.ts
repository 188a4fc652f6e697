import type { RegisterRoutes } from '../types.js';
import { registerOpenAiEdit } from './edit.js';
import { registerOpenAiGenerate } from './generate.js';
import { registerOpenAiModels } from './models.js';
import { registerOpenAiVariation } from './variations.js';

/** OpenAI's API shape under /v1, over the same domain verbs, keys, permissions and limits as /api. */
export const registerOpenAiRoutes: RegisterRoutes = (app, deps) => {
  registerOpenAiGenerate(app, deps);
  registerOpenAiEdit(app, deps);
  registerOpenAiVariation(app, deps);
  registerOpenAiModels(app, deps);
};
