import type { RegisterRoutes } from '../types.js';
import { registerCancelGeneration } from './cancel.js';
import { registerGenerationEvents } from './events.js';
import { registerGetGeneration } from './get.js';
import { registerListGenerations } from './list.js';

export const registerGenerationRoutes: RegisterRoutes = (app, deps) => {
  registerListGenerations(app, deps);
  registerGetGeneration(app, deps);
  registerCancelGeneration(app, deps);
  registerGenerationEvents(app, deps);
};
