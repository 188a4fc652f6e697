import type { RequestContext } from '../domain/context.js';

export type Permission = 'generate' | 'read' | 'manage';

/** Who the request acts for, set by the auth middleware of the deployment's mode. */
export interface Principal {
  userId: string;
  permissions: ReadonlySet<Permission>;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    principal: Principal;
  };
}

export function requestContext(vars: { requestId: string; principal: Principal }): RequestContext {
  return { userId: vars.principal.userId, requestId: vars.requestId };
}
