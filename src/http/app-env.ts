import type { RequestContext } from '../domain/context.js';
import type { Principal } from '../domain/keys/principal.js';

export type { Permission, Principal } from '../domain/keys/principal.js';

export interface AppEnv {
  Variables: {
    requestId: string;
    principal: Principal;
  };
}

export function requestContext(vars: { requestId: string; principal: Principal }): RequestContext {
  const key = vars.principal.key;
  if (key === undefined) return { userId: vars.principal.userId, requestId: vars.requestId };
  return { userId: vars.principal.userId, requestId: vars.requestId, key: { id: key.id, dailyBudgetUsd: key.dailyBudgetUsd, monthlyBudgetUsd: key.monthlyBudgetUsd } };
}
