import type { RegisterRoutes } from '../types.js';
import { registerTemplateById } from './by-id.js';
import { registerListAndCreateTemplates } from './list-and-create.js';

export const registerTemplateRoutes: RegisterRoutes = (app, deps) => {
  registerListAndCreateTemplates(app, deps);
  registerTemplateById(app, deps);
};
