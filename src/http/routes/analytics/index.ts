import type { RegisterRoutes } from '../types.js';
import { registerCosts } from './costs.js';
import { registerUsage } from './usage.js';

export const registerAnalyticsRoutes: RegisterRoutes = (app, deps) => {
  registerUsage(app, deps);
  registerCosts(app, deps);
};
