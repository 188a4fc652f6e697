import type { RegisterRoutes } from '../types.js';

export const registerHealth: RegisterRoutes = (app, deps) => {
  app.get('/health', async (c) => {
    try {
      await deps.db.ping();
      return c.json({ status: 'ok' }, 200);
    } catch (error) {
      deps.logger.error({ err: error }, 'health check: database unavailable');
      return c.json({ status: 'unavailable', details: { database: 'not ready' } }, 503);
    }
  });
};
