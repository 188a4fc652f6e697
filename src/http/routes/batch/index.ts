import type { RegisterRoutes } from '../types.js';
import { registerCreateBatch } from './create.js';
import { registerReadAndCancelBatch } from './read-and-cancel.js';

export const registerBatchRoutes: RegisterRoutes = (app, deps) => {
  registerCreateBatch(app, deps);
  registerReadAndCancelBatch(app, deps);
};
