import type { RegisterRoutes } from '../types.js';
import { registerCreateKey } from './create.js';
import { registerListKeys } from './list.js';
import { registerRevokeKey } from './revoke.js';
import { registerUpdateKey } from './update.js';

export const registerKeyRoutes: RegisterRoutes = (app, deps) => {
  registerCreateKey(app, deps);
  registerListKeys(app, deps);
  registerRevokeKey(app, deps);
  registerUpdateKey(app, deps);
};
