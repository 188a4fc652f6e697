import type { RegisterRoutes } from '../types.js';
import { registerGetModel } from './get.js';
import { registerListModels } from './list.js';

export const registerModelRoutes: RegisterRoutes = (app, deps) => {
  registerListModels(app, deps);
  registerGetModel(app, deps);
};
