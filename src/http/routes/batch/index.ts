import { ApiError } from '../../../domain/errors.js';
import type { RegisterRoutes } from '../types.js';

/**
 * Batches (queue, persistence, signed webhooks) arrive with their own change; until then both paths
 * answer 501 in the spec's error shape so clients can tell "not yet" from "wrong".
 */
export const registerBatchRoutes: RegisterRoutes = (app) => {
  for (const path of ['/api/batch/create', '/api/batch/generate']) {
    app.post(path, () => {
      throw new ApiError(501, 'NOT_IMPLEMENTED', 'Batches are not available yet', {
        message: 'batch jobs are not in this release; call POST /api/generate once per prompt',
      });
    });
  }
};
