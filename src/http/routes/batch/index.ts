import type { RegisterRoutes } from '../types.js';
import { registerCancelBatch } from './cancel.js';
import { registerCreateBatch } from './create.js';
import { registerGenerateBatch } from './generate.js';
import { registerGetBatch } from './get.js';
import { registerListBatches } from './list.js';

export const registerBatchRoutes: RegisterRoutes = (app, deps) => {
  registerCreateBatch(app, deps);
  registerGenerateBatch(app, deps);
  registerListBatches(app, deps);
  registerGetBatch(app, deps);
  registerCancelBatch(app, deps);
};
