import type { RegisterRoutes } from '../types.js';
import { registerCharges } from './charges.js';
import { registerCosts } from './costs.js';
import { registerUsage } from './usage.js';

export const registerAnalyticsRoutes: RegisterRoutes = (app, deps) => {
  registerUsage(app, deps);
  registerCosts(app, deps);
  registerCharges(app, deps);
};
