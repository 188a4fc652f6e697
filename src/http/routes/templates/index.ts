import type { RegisterRoutes } from '../types.js';
import { registerCreateTemplate } from './create.js';
import { registerDeleteTemplate } from './delete.js';
import { registerGetTemplate } from './get.js';
import { registerListTemplates } from './list.js';
import { registerUpdateTemplate } from './update.js';

export const registerTemplateRoutes: RegisterRoutes = (app, deps) => {
  registerListTemplates(app, deps);
  registerCreateTemplate(app, deps);
  registerGetTemplate(app, deps);
  registerUpdateTemplate(app, deps);
  registerDeleteTemplate(app, deps);
};
